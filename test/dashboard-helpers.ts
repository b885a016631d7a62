/**
 * A project's run store for the dashboard tests: a real SQLite file holding real runs of the
 * context-load fixture (the harness, as `rgate run` makes them), a nightly suite with a trend, a
 * baseline and an alarm, and a stored comparison session; and a hostile twin whose ids, suite
 * names, query texts and system name are script, attribute and URL payloads.
 */
import { join, resolve } from 'node:path';
import { runSuite } from '../harness/run-suite.js';
import { runCompare, saveSession } from '../history/compare.js';
import { compareRowsView, runsCompareView } from '../history/runs-compare.js';
import {
  compareSessionView,
  diffView,
  labelQueueView,
  projectView,
  projectsIndexView,
  runPageView,
  runsListView,
  suiteTrendView,
  type LoadPinnedSet,
} from '../history/dashboard-views.js';
import {
  renderComparePage,
  renderRunsComparePage,
  renderVsBasePage,
  renderDiffPage,
  renderLabelQueuePage,
  renderProjectPage,
  renderProjectsPage,
  renderRunPage,
  renderRunsListPage,
  renderSuiteTrendPage,
  type DashboardLinks,
} from '../reports/dashboard/index.js';
import type {
  CorpusRecord,
  DashboardRun,
  PartialConfig,
  ProjectSummary,
  QueryRecord,
  Report,
  SuiteSpec,
} from '../src/documents/index.js';
import { loadFixtureSet, type PinnedSuite } from '../src/snapshot/index.js';
import { hostileSession } from './compare-helpers.js';
import { asAsync, type AsyncRunStore } from '../src/store/async-store.js';
import { SqliteRunStore } from '../src/store/index.js';
import type { RunStore } from '../src/store/types.js';
import { artifacts, outcome, rate, report, rule, storeRun, tempDir } from './history-helpers.js';

export const root = resolve(import.meta.dirname, '..');

export const CONTEXT_SPEC: SuiteSpec = {
  fixture: 'context-load',
  system: { type: 'builtin', mode: 'context-load' },
  gate: 'context-load-contract-v0',
  replays: 2,
};

/** A real run of the context-load fixture, stored and finished as `rgate run` does. */
export async function realRun(
  store: RunStore,
  runId: string,
  startedAt: string,
  config?: PartialConfig,
): Promise<Report> {
  const { report: r } = await runSuite({
    name: 'context-load',
    root,
    spec: CONTEXT_SPEC,
    store,
    runId,
    startedAt,
    ...(config ? { config } : {}),
  });
  store.finishRun(runId, {
    status: 'complete',
    finished_at: startedAt,
    gate_id: r.gate.gate_id,
    verdict: r.gate.verdict,
    metrics: r.metrics,
    report: r,
  });
  return r;
}

const NIGHTLY_RULES = [rule('top1_useful_rate', 'min', 0.8), rule('error_rate', 'max', 0.05)];

/** A nightly run of suite `suite`: top1 `num`/50, error_rate `err`/50. */
export function nightlyRun(
  store: RunStore,
  o: {
    runId: string;
    suite?: string;
    num: number;
    err?: number;
    day: number;
    verdict?: 'PASS' | 'WATCH' | 'FAIL';
    status?: 'complete' | 'interrupted';
    version?: string;
    queryText?: string;
    systemName?: string;
  },
): void {
  const r = report({
    runId: o.runId,
    suite: o.suite ?? 'nightly',
    artifacts: artifacts(o.version ?? 'v1'),
    queries: [{ ...outcome('q1'), text: o.queryText ?? 'query q1' }, outcome('q2', { top1: 'not_useful' })],
    metrics: [
      rate('top1_useful_rate', o.num, 50, [o.num / 50 - 0.06, o.num / 50 + 0.06]),
      rate('error_rate', o.err ?? 0, 50),
    ],
    rules: NIGHTLY_RULES,
    verdict: o.verdict ?? 'PASS',
  });
  if (o.systemName !== undefined) r.system.name = o.systemName;
  const day = String(o.day).padStart(2, '0');
  storeRun(store, r, { startedAt: `2026-11-${day}T02:00:00Z`, ...(o.status ? { status: o.status } : {}) });
}

export interface Project {
  sync: SqliteRunStore;
  store: AsyncRunStore;
  cleanup: () => void;
}

/** A SQLite file in a temporary folder, behind the async contract as the server holds it. */
export function projectStore(prefix = 'rgate-dash-'): Project {
  const t = tempDir(prefix);
  const sync = new SqliteRunStore(join(t.dir, 'history.sqlite'));
  return {
    sync,
    store: asAsync(sync),
    cleanup: () => {
      sync.close();
      t.cleanup();
    },
  };
}

/**
 * The project most tests read: two real context-load runs (the second with another weighting), a
 * nightly suite of six runs (one interrupted, the last a drop that alarms and fails), its baseline
 * at the second nightly run, and a stored comparison session of context-load.
 */
export async function fillProject(p: Project): Promise<void> {
  await realRun(p.sync, 'ctx-1', '2026-11-20T01:00:00Z');
  await realRun(p.sync, 'ctx-2', '2026-11-21T01:00:00Z', { weighting_mode: 'evidence_outcome_bias' });
  const nums = [44, 45, 45, 20, 46, 30];
  nums.forEach((num, i) =>
    nightlyRun(p.sync, {
      runId: `n-${i + 1}`,
      num,
      day: i + 1,
      verdict: i === 5 ? 'FAIL' : 'PASS',
      ...(i === 3 ? { status: 'interrupted' as const } : {}),
      ...(i >= 4 ? { version: 'v1' } : {}),
    }),
  );
  p.sync.setBaseline('nightly', 'n-2', 'accepted after review');
  const session = await runCompare({
    suite: 'context-load',
    spec: CONTEXT_SPEC,
    root,
    variants: [
      { label: 'weighting_mode=uniform', overrides: { weighting_mode: 'uniform' } },
      {
        label: 'weighting_mode=evidence_outcome_bias',
        overrides: { weighting_mode: 'evidence_outcome_bias' },
      },
    ],
    kind: 'variants',
    sessionId: 'cmp-nightly',
    createdAt: '2026-11-22T00:00:00Z',
    replays: 1,
    resamples: 200,
    permutations: 200,
  });
  saveSession(p.sync, session);
}

/** Payloads for everything uploaded that a page shows or links to. */
export const PAYLOADS = {
  script: '<script>alert(1)</script>',
  attribute: '" onmouseover="alert(1)" x="',
  url: 'javascript:alert(1)',
  protocolRelative: '//evil.example/x',
} as const;

/**
 * The hostile project: run ids, suite names, query text and system name are the payloads, and a
 * stored comparison of suite `ctx` whose session id, variant label, query texts and selected doc
 * ids are too; `loadSet` is a pinned set for it whose doc ids, titles and paths are payloads.
 */
export function fillHostileProject(p: Project): {
  suite: string;
  runs: string[];
  session: string;
  loadSet: LoadPinnedSet;
} {
  const suite = `${PAYLOADS.script}${PAYLOADS.attribute}`;
  const runs = [PAYLOADS.url, PAYLOADS.attribute, PAYLOADS.script, PAYLOADS.protocolRelative];
  runs.forEach((runId, i) =>
    nightlyRun(p.sync, {
      runId,
      suite,
      num: 45 - i * 5,
      day: i + 1,
      verdict: i === 3 ? 'FAIL' : 'PASS',
      queryText: `${PAYLOADS.script} ${PAYLOADS.attribute} ${PAYLOADS.url}`,
      systemName: `${PAYLOADS.script}${PAYLOADS.attribute}`,
    }),
  );
  p.sync.setBaseline(suite, runs[0]!, PAYLOADS.script);
  const session = hostileSession();
  session.environment.session_id = PAYLOADS.attribute;
  saveSession(p.sync, session);
  // the session's variants ranked `ok-q<i>` or `<b>q<i></b>` first; each query judges another doc
  const queries: QueryRecord[] = Object.keys(session.variants[0]!.top_ids ?? {}).map((id) => ({
    query_id: id,
    text: `${PAYLOADS.script} ${id}`,
    qrels: { judged: 1 },
  }));
  const corpus: CorpusRecord[] = [
    ...new Set(session.variants.flatMap((v) => Object.values(v.top_ids ?? {}).flat())),
  ]
    .sort()
    .map((id) => ({
      id,
      source_path: `${PAYLOADS.url}/${id}`,
      title: `${PAYLOADS.script}${PAYLOADS.attribute}`,
      text: `${PAYLOADS.script} ${PAYLOADS.attribute} ${PAYLOADS.url}`,
      kind: 'canonical' as const,
      captured_at: '2026-11-01T00:00:00Z',
    }));
  const set = {
    name: PAYLOADS.script,
    dir: '/nowhere',
    corpus,
    queries,
    artifacts: session.artifacts,
  } as unknown as PinnedSuite;
  return { suite, runs, session: PAYLOADS.attribute, loadSet: () => Promise.resolve(set) };
}

/**
 * What fillProject's project shows, as projectPages takes it: the nightly suite's trend, the two
 * context-load runs diffed, the second as the run page, the stored comparison, and the label queue of
 * context-load read from its fixture set.
 */
export function filledProjectViews(): Pick<
  Parameters<typeof projectPages>[3],
  'suite' | 'diff' | 'run' | 'session' | 'compareRuns' | 'vsBase' | 'labelSuite' | 'loadSet'
> {
  const set = loadFixtureSet('context-load', { root });
  return {
    suite: 'nightly',
    diff: ['ctx-1', 'ctx-2'],
    run: 'ctx-2',
    session: 'cmp-nightly',
    compareRuns: ['ctx-2', 'ctx-1'],
    vsBase: ['ctx-1', 'ctx-2'],
    labelSuite: 'context-load',
    loadSet: async (a) => (a.corpus_sha256 === set.artifacts.corpus_sha256 ? set : undefined),
  };
}

/** Every page of a project, keyed by the path the dashboard serves it at. */
export async function projectPages(
  store: AsyncRunStore,
  project: string,
  links: DashboardLinks,
  o: {
    suite: string;
    diff: [string, string];
    run: string;
    session?: string;
    /** stored runs to compare side by side (the compare-runs page) */
    compareRuns?: string[];
    /**
     * [base run, branch run]: the vs-base page drawn for them as if the second were a branch run whose
     * merge-base commit the first ran (the choice of the base run is tested in history/base-run.test.ts)
     */
    vsBase?: [string, string];
    labelSuite: string;
    loadSet?: LoadPinnedSet;
    projects: ProjectSummary[];
    /** change every run of the views before they are drawn (uploads naming branches and commits) */
    edit?: (run: DashboardRun) => void;
  },
): Promise<Map<string, string>> {
  const each = (runs: (DashboardRun | null)[]) => {
    for (const r of runs) if (r && o.edit) o.edit(r);
  };
  const pages = new Map<string, string>();
  pages.set(links.projects(), renderProjectsPage(projectsIndexView(o.projects), links));
  const pv = await projectView(store, project);
  each([...pv.latest_runs, ...pv.suites.flatMap((s) => [s.newest, s.newest_complete])]);
  pages.set(links.project(project), renderProjectPage(pv, links));
  const tv = await suiteTrendView(store, project, o.suite);
  each([...tv.runs, tv.newest]);
  pages.set(links.suite(project, o.suite), renderSuiteTrendPage(tv, links));
  const rv = await runsListView(store, project, { limit: 3 });
  each(rv.runs);
  pages.set(links.runs(project), renderRunsListPage(rv, links));
  const page = await runPageView(store, project, o.run);
  each([page.run]);
  pages.set(links.run(project, o.run), renderRunPage(page, links));
  const dv = await diffView(store, project, ...o.diff);
  each([dv.a, dv.b]);
  pages.set(links.diff(project, ...o.diff), renderDiffPage(dv, links));
  if (o.session !== undefined) {
    pages.set(
      links.compare(project, o.session),
      renderComparePage(await compareSessionView(store, project, o.session), links),
    );
  }
  if (o.compareRuns !== undefined) {
    const cv = await runsCompareView(store, project, o.compareRuns);
    each(cv.runs);
    pages.set(links.compareRuns(project, o.compareRuns), renderRunsComparePage(cv, links));
  }
  if (o.vsBase !== undefined) {
    const [base, run] = await Promise.all(o.vsBase.map((id) => store.getRun(id)));
    const compare = await compareRowsView(store, project, [base!, run!]);
    each(compare.runs);
    const view = {
      run_id: run!.run_id,
      base: {
        run_id: base!.run_id,
        chosen_by: 'merge_base' as const,
        base_branch: 'main',
        why: `the run of the merge-base commit ${'a'.repeat(12)} on main`,
      },
      compare,
    };
    pages.set(links.vsBase(project, run!.run_id), renderVsBasePage(view, links));
  }
  const lv = await labelQueueView(store, project, o.labelSuite, o.loadSet ? { loadSet: o.loadSet } : {});
  pages.set(links.label(project, o.labelSuite), renderLabelQueuePage(lv, links));
  return pages;
}

/** The hostile project filled (fillHostileProject) and every page of it, its uploads' branch and commit payloads too. */
export async function hostileProjectPages(
  p: Project,
  links: DashboardLinks,
): Promise<{ pages: Map<string, string>; suite: string; session: string }> {
  const { suite, runs, session, loadSet } = fillHostileProject(p);
  const pages = await projectPages(p.store, PAYLOADS.url, links, {
    suite,
    diff: [runs[0]!, runs[3]!],
    run: runs[1]!,
    session,
    labelSuite: 'ctx',
    loadSet,
    projects: [
      {
        slug: PAYLOADS.url,
        name: PAYLOADS.script + PAYLOADS.attribute,
        run_count: 4,
        newest: { run_id: PAYLOADS.attribute, suite, started_at: PAYLOADS.script, verdict: 'FAIL' },
      },
    ],
    edit: (r) => {
      r.branch = PAYLOADS.attribute + PAYLOADS.script;
      r.commit = PAYLOADS.url;
    },
  });
  return { pages, suite, session };
}
