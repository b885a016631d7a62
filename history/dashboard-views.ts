/**
 * The dashboard of `rgate server`: one async builder per page, each reading one project's run store
 * (the async contract, so SQLite and PostgreSQL alike) and handing the rows to the pure history
 * functions the CLI uses (trends, diff, compare, label queue). The documents they return
 * (src/documents/dashboard.ts) are drawn by reports/dashboard; nothing here renders or routes.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { RgateError } from '../src/core/errors.js';
import type {
  ComparePageView,
  DashboardRun,
  DiffPageView,
  LabelQueuePageView,
  ProjectSummary,
  ProjectsIndexView,
  ProjectView,
  Report,
  RunPageView,
  RunRow,
  RunsFilter,
  RunsListView,
  SuiteSummary,
  SuiteTrendView,
} from '../src/documents/index.js';
import type { PinnedSuite } from '../src/snapshot/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import { checkSession } from './compare.js';
import { diffReports } from './diff.js';
import { buildLabelQueue, rankingsFromRun, rankingsFromSession } from './label-queue.js';
import { historyOfWindow, WINDOW } from './trends-up-to.js';
import {
  asReport,
  comparedRunOf,
  historyFromRuns,
  readComparedReport,
  type RunWithMetrics,
} from './trends.js';

/** A page's subject is not in the store: the server answers 404 (other RgateErrors are 400). */
export class DashboardNotFound extends RgateError {
  constructor(message: string, hint?: string) {
    super('usage', message, hint);
    this.name = 'DashboardNotFound';
  }
}

/** Default and largest page of the runs list, and of the trend window. */
export const RUNS_PAGE = { default: 50, max: 500 } as const;
export const TREND_WINDOW = { default: 100, max: 1000 } as const;
const LATEST_RUNS = 20;

/**
 * The git commit and branch an upload named. They are read as optional fields of the stored row,
 * top level (`commit`, `branch`) or under `git`, so runs stored before uploads carried them, and
 * local runs, show none.
 */
export function gitOf(row: RunRow): { commit: string | null; branch: string | null } {
  const r = row as RunRow & {
    commit?: unknown;
    branch?: unknown;
    git?: { commit?: unknown; branch?: unknown };
  };
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    commit: str(r.commit) ?? str(r.git?.commit),
    branch: str(r.branch) ?? str(r.git?.branch),
  };
}

/** A stored row as the dashboard lists it. */
export function dashboardRun(row: RunRow): DashboardRun {
  const git = gitOf(row);
  const version = (row.artifacts as { version?: unknown } | undefined)?.version;
  return {
    run_id: row.run_id,
    suite: row.suite,
    started_at: row.started_at,
    finished_at: row.finished_at,
    status: row.status,
    gate_id: row.gate_id,
    verdict: row.verdict,
    commit: git.commit,
    branch: git.branch,
    fixture_version: typeof version === 'string' ? version : null,
    observation_count: row.observation_count,
  };
}

/** The projects page: the registry's list (the server supplies it), by name then slug. */
export function projectsIndexView(projects: readonly ProjectSummary[]): ProjectsIndexView {
  return {
    projects: [...projects]
      .sort((a, b) => compareCodeUnits(a.name, b.name) || compareCodeUnits(a.slug, b.slug))
      .map((p) => ({ ...p, newest: p.newest ? { ...p.newest } : null })),
  };
}

/**
 * One project's line on the projects page, from its store (the registry knows the slug and name):
 * how many runs it holds and its newest run. The page is read on every visit and lists every
 * project, so it asks the store for just these (summarizeRuns), never for the runs themselves.
 */
export async function projectSummary(
  store: AsyncRunStore,
  slug: string,
  name: string,
): Promise<ProjectSummary> {
  const { run_count, newest } = await store.summarizeRuns();
  return {
    slug,
    name,
    run_count,
    newest: newest
      ? { run_id: newest.run_id, suite: newest.suite, started_at: newest.started_at, verdict: newest.verdict }
      : null,
  };
}

/** A project: its suites with the newest verdict of each, its latest runs and comparison sessions. */
export async function projectView(store: AsyncRunStore, slug: string): Promise<ProjectView> {
  // per suite its count and newest runs, never every run: a project's page costs the same at 10 runs
  // and at 10,000
  const [{ suites: names }, { run_count }, latest] = await Promise.all([
    store.runFacets(),
    store.summarizeRuns(),
    store.listRuns({ limit: LATEST_RUNS }),
  ]);
  const summaries = await Promise.all(
    names.map(async (suite): Promise<SuiteSummary | undefined> => {
      const [summary, [newest], [complete], baseline] = await Promise.all([
        store.summarizeRuns({ suite }),
        store.listRuns({ suite, limit: 1 }),
        store.listRuns({ suite, status: 'complete', limit: 1 }),
        store.getBaseline(suite),
      ]);
      // a suite whose runs were deleted by hand since the facets were read
      if (!newest) return undefined;
      return {
        suite,
        run_count: summary.run_count,
        newest: dashboardRun(newest),
        newest_complete: complete ? dashboardRun(complete) : null,
        baseline_run_id: baseline?.run_id ?? null,
      };
    }),
  );
  const suites = summaries.filter((x): x is SuiteSummary => x !== undefined);
  const sessions = await store.listCompareSessions({ limit: LATEST_RUNS });
  return {
    project: slug,
    run_count,
    suites,
    latest_runs: latest.map(dashboardRun),
    compare_sessions: sessions.map((s) => ({
      session_id: s.session_id,
      suite: s.suite,
      created_at: s.created_at,
      summary: s.summary,
    })),
  };
}

/** The rows with their measures (a complete run's; none for the others), read in one query. */
async function withMetrics(store: AsyncRunStore, rows: readonly RunRow[]): Promise<RunWithMetrics[]> {
  const complete = rows.filter((r) => r.status === 'complete').map((r) => r.run_id);
  const metrics = await store.getMetricsOf(complete);
  const byRun = new Map(complete.map((id, i) => [id, metrics[i]!]));
  return rows.map((row) => ({ row, metrics: byRun.get(row.run_id) ?? [] }));
}

/**
 * A suite's trend: every gate metric over the newest `limit` runs (default 100), as `rgate history`
 * computes it, with each run's commit and branch, the baseline, and the newest run (whose verdict the
 * page states beside every alarm).
 */
export async function suiteTrendView(
  store: AsyncRunStore,
  slug: string,
  suite: string,
  opts: { limit?: number } = {},
): Promise<SuiteTrendView> {
  const limit = boundedLimit(opts.limit, TREND_WINDOW, 'limit');
  // one row more than the window says whether older runs exist, without reading them all
  const rows = await store.listRuns({ suite, limit: limit + 1 });
  if (rows.length === 0) {
    throw new DashboardNotFound(
      `no runs of suite "${suite}" in project "${slug}"`,
      'upload one: rgate upload',
    );
  }
  const window = rows.slice(0, limit);
  const runs = await withMetrics(store, window);
  const newestComplete = window.find((r) => r.status === 'complete');
  const compared = comparedRunOf(window);
  const report = newestComplete ? await store.getReport(newestComplete.run_id) : undefined;
  const comparedRead = compared !== undefined ? await readComparedAsync(store, compared) : undefined;
  const baseline = await store.getBaseline(suite);
  const baselineReport = baseline ? (await readComparedAsync(store, baseline.run_id)).report : undefined;
  const history = historyFromRuns(suite, runs, report, {
    readLimit: limit,
    baseline: baselineReport,
    ...(comparedRead ? { compared: comparedRead } : {}),
  });
  const listed = [...window].reverse().map(dashboardRun);
  return {
    project: slug,
    suite,
    history,
    runs: listed,
    baseline: baseline
      ? {
          run_id: baseline.run_id,
          note: baseline.note,
          in_window: window.some((r) => r.run_id === baseline.run_id),
        }
      : null,
    newest: dashboardRun(window[0]!),
    branches: [...new Set(listed.flatMap((r) => (r.branch === null ? [] : [r.branch])))].sort(
      compareCodeUnits,
    ),
    window: { limit, runs: window.length, more: rows.length > limit },
  };
}

/**
 * The runs list, newest first, filtered by suite and branch, one page at a time: `before` is the
 * last run id of the previous page (a cursor, stable while new runs arrive at the top).
 */
export async function runsListView(
  store: AsyncRunStore,
  slug: string,
  filter: RunsFilter = {},
): Promise<RunsListView> {
  const limit = boundedLimit(filter.limit, RUNS_PAGE, 'limit');
  const listed = await store.listRuns({
    ...(filter.suite !== undefined ? { suite: filter.suite } : {}),
    ...(filter.branch !== undefined ? { branch: filter.branch } : {}),
    // from the cursor on, one more than the page: whether a next page exists
    ...(filter.before !== undefined ? { from: filter.before } : {}),
    limit: limit + (filter.before !== undefined ? 2 : 1),
  });
  if (filter.before !== undefined && listed.length === 0) {
    throw new DashboardNotFound(
      `no run ${filter.before} in this listing of project "${slug}"`,
      'start from the first page',
    );
  }
  const rows = filter.before !== undefined ? listed.slice(1) : listed;
  const facets = await store.runFacets();
  const page = rows.slice(0, limit);
  const clean: RunsFilter = {};
  if (filter.suite !== undefined) clean.suite = filter.suite;
  if (filter.branch !== undefined) clean.branch = filter.branch;
  if (filter.before !== undefined) clean.before = filter.before;
  if (filter.limit !== undefined) clean.limit = limit;
  return {
    project: slug,
    filter: clean,
    limit,
    runs: page.map(dashboardRun),
    next_before: rows.length > limit ? page[page.length - 1]!.run_id : null,
    suites: facets.suites,
    branches: facets.branches,
  };
}

/** A run's page: its stored report and the suite's history up to it (the report's trend charts). */
export async function runPageView(store: AsyncRunStore, slug: string, runId: string): Promise<RunPageView> {
  const row = await requireRun(store, slug, runId);
  const report = asReport(await store.getReport(runId)) ?? null;
  let history = null;
  if (report) {
    // a comparison's variant is no nightly run: its window is itself
    const listed = await store.listRuns({ suite: row.suite, from: runId, limit: WINDOW });
    const window = listed.length > 0 ? listed : [row];
    const runs = await withMetrics(store, window);
    const compared = comparedRunOf(window);
    const baseline = await store.getBaseline(row.suite);
    history = historyOfWindow(
      row.suite,
      runs,
      report,
      compared !== undefined ? await readComparedAsync(store, compared) : undefined,
      baseline ? (await readComparedAsync(store, baseline.run_id)).report : undefined,
    );
  }
  return { project: slug, run: dashboardRun(row), report, history };
}

/** What changed per query between two stored runs (a: the reference, b: the candidate). */
export async function diffView(
  store: AsyncRunStore,
  slug: string,
  a: string,
  b: string,
): Promise<DiffPageView> {
  const [rowA, rowB] = await Promise.all([requireRun(store, slug, a), requireRun(store, slug, b)]);
  const [ra, rb] = await Promise.all([storedReportOf(store, slug, rowA), storedReportOf(store, slug, rowB)]);
  return { project: slug, a: dashboardRun(rowA), b: dashboardRun(rowB), diff: diffReports(ra, rb) };
}

/** A stored comparison session (`rgate compare`). */
export async function compareSessionView(
  store: AsyncRunStore,
  slug: string,
  sessionId: string,
): Promise<ComparePageView> {
  const stored = await store.getCompareSession(sessionId);
  if (stored === undefined) {
    throw new DashboardNotFound(
      `no comparison session ${sessionId} in project "${slug}"`,
      'the project page lists its sessions',
    );
  }
  return { project: slug, session: checkSession(stored, sessionId, `project "${slug}"`) };
}

/** Where the label queue page finds a pinned fixture set by the snapshot a run was made on. */
export type LoadPinnedSet = (artifacts: RunRow['artifacts']) => Promise<PinnedSuite | undefined>;

/**
 * The label queue of a suite, read-only: its newest comparison session's variants (else its newest
 * complete run's replays) pooled at depth `k`. The queue shows document texts and judges by the
 * qrels, which a run store does not keep: without `loadSet` (or when it has no matching fixture) the
 * page says so and names the command that builds the queue from a checkout.
 */
export async function labelQueueView(
  store: AsyncRunStore,
  slug: string,
  suite: string,
  opts: { k?: number; loadSet?: LoadPinnedSet } = {},
): Promise<LabelQueuePageView> {
  const k = opts.k ?? 10;
  const [session] = await store.listCompareSessions({ suite, limit: 1 });
  let source: { kind: string; id: string };
  let rankings;
  try {
    if (session) {
      source = { kind: 'compare', id: session.session_id };
      rankings = rankingsFromSession(
        checkSession(
          await store.getCompareSession(session.session_id),
          session.session_id,
          `project "${slug}"`,
        ),
      );
    } else {
      const [row] = await store.listRuns({ suite, status: 'complete', limit: 1 });
      if (!row) {
        throw new DashboardNotFound(
          `suite "${suite}" of project "${slug}" has no complete run or comparison session to queue`,
          'upload a complete run first',
        );
      }
      source = { kind: 'run', id: row.run_id };
      rankings = rankingsFromRun(row, await store.getObservations(row.run_id));
    }
  } catch (e) {
    // a source without rankings to pool (no successful observation, a session from an older rgate)
    if (e instanceof DashboardNotFound || !(e instanceof RgateError) || source! === undefined) throw e;
    return { project: slug, suite, source, queue: null, why: e.message };
  }
  const set = opts.loadSet ? await opts.loadSet(rankings.artifacts) : undefined;
  if (!set) {
    return {
      project: slug,
      suite,
      source,
      queue: null,
      why:
        `the server keeps runs, not the pinned corpus and qrels a queue shows (${rankings.artifacts.corpus_id}); ` +
        `in a checkout that holds fixture ${rankings.artifacts.fixture}, run: rgate label queue ${rankings.origin.id}`,
    };
  }
  return { project: slug, suite, source, queue: buildLabelQueue(rankings, set, k), why: null };
}

/** readComparedReport over an async store: a store's refusal becomes the reason, as in the CLI. */
async function readComparedAsync(
  store: AsyncRunStore,
  runId: string,
): Promise<{ report: Report | undefined; unavailable?: string }> {
  let raw: unknown;
  try {
    raw = await store.getReport(runId);
  } catch (e) {
    return readComparedReport(() => {
      throw e;
    }, runId);
  }
  return readComparedReport(() => raw, runId);
}

export async function requireRun(store: AsyncRunStore, slug: string, runId: string): Promise<RunRow> {
  const row = await store.getRun(runId);
  if (!row) throw new DashboardNotFound(`no run ${runId} in project "${slug}"`, 'the runs list names them');
  return row;
}

/** A run's stored report, or not found: a run that never finished has none (`what`: nothing to diff). */
export async function storedReportOf(
  store: AsyncRunStore,
  slug: string,
  row: RunRow,
  what = 'nothing to diff',
): Promise<Report> {
  const report = asReport(await store.getReport(row.run_id));
  if (!report) {
    throw new DashboardNotFound(
      `run ${row.run_id} of project "${slug}" has no stored report (${row.status}): ${what}`,
      'pick a complete run',
    );
  }
  return report;
}

function boundedLimit(
  value: number | undefined,
  bounds: { default: number; max: number },
  name: string,
): number {
  if (value === undefined) return bounds.default;
  if (!Number.isInteger(value) || value < 1 || value > bounds.max) {
    throw new RgateError('usage', `${name} ${value}: must be a whole number from 1 to ${bounds.max}`);
  }
  return value;
}
