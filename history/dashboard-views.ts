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
import { RUNS_FILTER_KEYS, RUNS_SORT_COLUMNS } from '../src/documents/index.js';
import type { PinnedSuite } from '../src/snapshot/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import type { RunSort } from '../src/store/types.js';
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

/** The pull request an upload named (`git.pr`, read as gitOf reads the rest), else null. */
function prOf(row: RunRow): number | null {
  const pr = (row as RunRow & { git?: { pr?: unknown } }).git?.pr;
  return typeof pr === 'number' && Number.isInteger(pr) && pr >= 1 ? pr : null;
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
    pr: prOf(row),
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
 * The runs list, newest first or sorted by a column or a measure, filtered by suite, branch, verdict
 * and a measure's range, one page at a time, with a column per metric (`filter.metric`, else the gate
 * metrics of the listed suites). Newest first, `before` is the last run id of the previous page (a
 * cursor, stable while new runs arrive at the top); sorted, a page is an `offset` into the order: a
 * new run lands anywhere in a sorted order, so no cursor keeps a place there any better, and an
 * offset is what the reader of page 3 of a sorted table means.
 * `repositoryUrl`: the project's template (`{commit}`, `{branch}`, `{pr}`) the page links by.
 */
export async function runsListView(
  store: AsyncRunStore,
  slug: string,
  filter: RunsFilter = {},
  opts: { repositoryUrl?: string | undefined } = {},
): Promise<RunsListView> {
  const limit = boundedLimit(filter.limit, RUNS_PAGE, 'limit');
  const sort = runSortOf(filter);
  checkRunsFilter(filter, sort);
  const range =
    filter.metric !== undefined && (filter.metric_min !== undefined || filter.metric_max !== undefined)
      ? {
          metric: filter.metric,
          ...(filter.metric_min !== undefined ? { min: filter.metric_min } : {}),
          ...(filter.metric_max !== undefined ? { max: filter.metric_max } : {}),
        }
      : undefined;
  const listed = await store.listRuns({
    ...(filter.suite !== undefined ? { suite: filter.suite } : {}),
    ...(filter.branch !== undefined ? { branch: filter.branch } : {}),
    ...(filter.verdict !== undefined ? { verdict: filter.verdict } : {}),
    ...(range !== undefined ? { metricRange: range } : {}),
    ...(sort !== undefined ? { sort } : {}),
    ...(filter.offset !== undefined ? { offset: filter.offset } : {}),
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
  const page = rows.slice(0, limit);
  const [facets, columns] = await Promise.all([
    store.runFacets(),
    filter.metric !== undefined ? [filter.metric] : gateMetricsOf(store, page),
  ]);
  const more = rows.length > limit;
  return {
    project: slug,
    filter: cleanRunsFilter(filter, limit),
    limit,
    runs: page.map(dashboardRun),
    metric_columns: columns,
    metric_values: await metricValues(store, page, columns),
    next_before: more && sort === undefined ? page[page.length - 1]!.run_id : null,
    next_offset: more && sort !== undefined ? (filter.offset ?? 0) + limit : null,
    repository_url: opts.repositoryUrl ?? null,
    suites: facets.suites,
    branches: facets.branches,
  };
}

/** The filter as given, its absent fields left out (a page's links repeat exactly what was asked). */
function cleanRunsFilter(filter: RunsFilter, limit: number): RunsFilter {
  const clean: RunsFilter = {};
  for (const k of RUNS_FILTER_KEYS) {
    if (k === 'limit') continue;
    if (filter[k] !== undefined) (clean as Record<string, unknown>)[k] = filter[k];
  }
  if (filter.limit !== undefined) clean.limit = limit;
  return clean;
}

/** `sort` and `order` as the store takes them; undefined: the listing's own order (newest first). */
function runSortOf(filter: RunsFilter): RunSort | undefined {
  if (filter.sort === undefined) {
    if (filter.order === 'asc') return { by: 'started_at', order: 'asc' };
    return undefined;
  }
  const order = filter.order ?? 'desc';
  if (filter.sort.startsWith('metric:') && filter.sort.length > 'metric:'.length) {
    return { by: 'metric', metric: filter.sort.slice('metric:'.length), order };
  }
  const column = RUNS_SORT_COLUMNS.find((c) => c === filter.sort);
  if (column === undefined) {
    throw new RgateError(
      'usage',
      `sort ${JSON.stringify(filter.sort)}: not a column of the runs list`,
      `one of ${RUNS_SORT_COLUMNS.join(', ')}, or metric:<metric id>`,
    );
  }
  // newest first is the listing's own order: its pages keep the cursor
  if (column === 'started' && order === 'desc') return undefined;
  return { by: column === 'started' ? 'started_at' : column, order };
}

/** The combinations a runs list refuses, each with what to ask instead. */
function checkRunsFilter(filter: RunsFilter, sort: RunSort | undefined): void {
  if ((filter.metric_min !== undefined || filter.metric_max !== undefined) && filter.metric === undefined) {
    throw new RgateError(
      'usage',
      'metric_min and metric_max bound the chosen metric: none is chosen',
      'add metric=<metric id>',
    );
  }
  if (
    filter.metric_min !== undefined &&
    filter.metric_max !== undefined &&
    filter.metric_min > filter.metric_max
  ) {
    throw new RgateError('usage', `metric_min ${filter.metric_min} is above metric_max ${filter.metric_max}`);
  }
  if (filter.before !== undefined && sort !== undefined) {
    throw new RgateError(
      'usage',
      'before pages the newest-first listing; a sorted listing pages by offset',
      'use offset=<runs to skip>',
    );
  }
  if (filter.offset !== undefined && sort === undefined) {
    throw new RgateError(
      'usage',
      'offset pages a sorted listing; the newest-first listing pages by before',
      'use before=<the last run id of the previous page>',
    );
  }
}

/**
 * The gate metrics of the suites a page lists: per suite (by name), the rules' metrics of its newest
 * complete run's gate, in rule order, each metric once. One report per suite on the page, not per run.
 */
async function gateMetricsOf(store: AsyncRunStore, page: readonly RunRow[]): Promise<string[]> {
  const suites = [...new Set(page.map((r) => r.suite))].sort(compareCodeUnits);
  const perSuite = await Promise.all(
    suites.map(async (suite) => {
      const [newest] = await store.listRuns({ suite, status: 'complete', limit: 1 });
      const report = newest ? asReport(await store.getReport(newest.run_id)) : undefined;
      return report?.gate.rules.map((r) => r.metric) ?? [];
    }),
  );
  return [...new Set(perSuite.flat())];
}

/** Each row's value of each column, as the store keeps a measure's value (a rate, a mean, a p95). */
async function metricValues(
  store: AsyncRunStore,
  page: readonly RunRow[],
  columns: readonly string[],
): Promise<(number | null)[][]> {
  if (columns.length === 0) return page.map(() => []);
  // every run's stored measures (a failed run may hold some): the cells show what the sort orders by
  const measured = await store.getMetricsOf(page.map((r) => r.run_id));
  return measured.map((metrics) =>
    columns.map((id) => {
      const m = metrics.find((x) => x.id === id);
      if (m === undefined) return null;
      const v = m.value;
      const value = v.kind === 'rate' ? v.rate : v.kind === 'mean' ? v.mean : v.p95;
      return value === null || !Number.isFinite(value) ? null : value;
    }),
  );
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
