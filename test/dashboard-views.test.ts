import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DashboardNotFound,
  compareSessionView,
  dashboardRun,
  diffView,
  gitOf,
  labelQueueView,
  projectSummary,
  projectView,
  projectsIndexView,
  runPageView,
  runsListView,
  suiteTrendView,
} from '../history/dashboard-views.js';
import { diffReports } from '../history/diff.js';
import { runsCompareView } from '../history/runs-compare.js';
import { RgateError } from '../src/core/errors.js';
import { buildLabelQueue, rankingsFromStore } from '../history/label-queue.js';
import { historyUpToRun } from '../history/trends-up-to.js';
import { historyFromStore, asReport } from '../history/trends.js';
import { compileSchema, formatAjvErrors } from '../src/contracts/ajv.js';
import {
  ComparePageViewSchema,
  DiffPageViewSchema,
  RunsComparePageViewSchema,
  LabelQueuePageViewSchema,
  ProjectViewSchema,
  ProjectsIndexViewSchema,
  RunPageViewSchema,
  RunsListViewSchema,
  SuiteTrendViewSchema,
  type RunRow,
} from '../src/documents/index.js';
import { loadFixtureSet } from '../src/snapshot/index.js';
import { ARTIFACTS, SETTINGS } from './helpers/run-rows.js';
import { fillProject, nightlyRun, projectStore, root, type Project } from './dashboard-helpers.js';

function conforms(schema: object, doc: unknown): string[] {
  const validate = compileSchema(schema);
  return validate(doc) ? [] : formatAjvErrors(validate.errors);
}

let p: Project;
beforeAll(async () => {
  p = projectStore();
  await fillProject(p);
}, 120_000);
afterAll(() => p.cleanup());

describe('dashboard views over a real SQLite project store', () => {
  it('projects index: the registry list sorted by name then slug', () => {
    const v = projectsIndexView([
      { slug: 'b', name: 'Search', run_count: 3, newest: null },
      { slug: 'a', name: 'Search', run_count: 1, newest: null },
      { slug: 'c', name: 'Memory', run_count: 0, newest: null },
    ]);
    expect(v.projects.map((x) => x.slug)).toEqual(['c', 'a', 'b']);
    expect(conforms(ProjectsIndexViewSchema, v)).toEqual([]);
  });

  it('project summary: the run count and newest run the projects page lists', async () => {
    expect(await projectSummary(p.store, 'search', 'Search')).toEqual({
      slug: 'search',
      name: 'Search',
      run_count: 8,
      newest: { run_id: 'ctx-2', suite: 'context-load', started_at: '2026-11-21T01:00:00Z', verdict: 'PASS' },
    });
  });

  it('project: each suite with its newest run, where it stands, its baseline; latest runs; sessions', async () => {
    const v = await projectView(p.store, 'search');
    expect(conforms(ProjectViewSchema, v)).toEqual([]);
    expect(v.run_count).toBe(8);
    expect(v.suites.map((s) => s.suite)).toEqual(['context-load', 'nightly']);
    const nightly = v.suites[1]!;
    expect(nightly.newest.run_id).toBe('n-6');
    expect(nightly.newest_complete?.verdict).toBe('FAIL');
    expect(nightly.baseline_run_id).toBe('n-2');
    expect(v.suites[0]!.newest.run_id).toBe('ctx-2');
    expect(v.latest_runs.map((r) => r.run_id)).toEqual([
      'ctx-2',
      'ctx-1',
      'n-6',
      'n-5',
      'n-4',
      'n-3',
      'n-2',
      'n-1',
    ]);
    expect(v.compare_sessions.map((s) => s.session_id)).toEqual(['cmp-nightly']);
  });

  it('suite trend: what rgate history computes, with the baseline, the newest run and its window', async () => {
    const v = await suiteTrendView(p.store, 'search', 'nightly');
    expect(conforms(SuiteTrendViewSchema, v)).toEqual([]);
    // the same trends and alarms the CLI shows for this window
    expect(v.history).toEqual(historyFromStore(p.sync, 'nightly', { limit: 100 }));
    expect(v.history.trends.filter((t) => t.gate_metric).map((t) => t.metric)).toEqual([
      'top1_useful_rate',
      'error_rate',
    ]);
    expect(v.history.alarms.some((a) => a.includes('top1_useful_rate dropped to 0.6 in n-6'))).toBe(true);
    expect(v.history.skipped.map((r) => r.run_id)).toEqual(['n-4']);
    expect(v.baseline).toEqual({ run_id: 'n-2', note: 'accepted after review', in_window: true });
    expect(v.newest?.run_id).toBe('n-6');
    expect(v.newest?.verdict).toBe('FAIL');
    expect(v.runs.map((r) => r.run_id)).toEqual(['n-1', 'n-2', 'n-3', 'n-4', 'n-5', 'n-6']);
    expect(v.window).toEqual({ limit: 100, runs: 6, more: false });

    const small = await suiteTrendView(p.store, 'search', 'nightly', { limit: 3 });
    expect(small.window).toEqual({ limit: 3, runs: 3, more: true });
    expect(small.baseline?.in_window).toBe(false);
    await expect(suiteTrendView(p.store, 'search', 'nightly', { limit: 0 })).rejects.toThrow(/limit 0/);
    await expect(suiteTrendView(p.store, 'search', 'nope')).rejects.toBeInstanceOf(DashboardNotFound);
  });

  it('runs list: newest first, filtered by suite, paged by a before cursor', async () => {
    const first = await runsListView(p.store, 'search', { limit: 3 });
    expect(conforms(RunsListViewSchema, first)).toEqual([]);
    expect(first.runs.map((r) => r.run_id)).toEqual(['ctx-2', 'ctx-1', 'n-6']);
    expect(first.next_before).toBe('n-6');
    expect(first.suites).toEqual(['context-load', 'nightly']);
    const second = await runsListView(p.store, 'search', { limit: 3, before: 'n-6' });
    expect(second.runs.map((r) => r.run_id)).toEqual(['n-5', 'n-4', 'n-3']);
    const last = await runsListView(p.store, 'search', { limit: 3, before: 'n-3' });
    expect(last.runs.map((r) => r.run_id)).toEqual(['n-2', 'n-1']);
    expect(last.next_before).toBeNull();

    const ctx = await runsListView(p.store, 'search', { suite: 'context-load' });
    expect(ctx.runs.map((r) => r.run_id)).toEqual(['ctx-2', 'ctx-1']);
    expect(ctx.suites).toEqual(['context-load', 'nightly']); // the form still offers every suite
    expect(ctx.limit).toBe(50);
    // these runs name no branch: a branch filter matches none
    expect((await runsListView(p.store, 'search', { branch: 'main' })).runs).toEqual([]);
    await expect(runsListView(p.store, 'search', { before: 'nope' })).rejects.toBeInstanceOf(
      DashboardNotFound,
    );
    await expect(runsListView(p.store, 'search', { limit: 501 })).rejects.toThrow(/1 to 500/);
  });

  it('runs list: gate metric columns, sorted by a measure and paged by offset, filtered by verdict and a range', async () => {
    const nightly = await runsListView(p.store, 'search', { suite: 'nightly' });
    expect(conforms(RunsListViewSchema, nightly)).toEqual([]);
    // the gate's metrics by default: the rules of the suite's newest complete run, in rule order
    const newest = asReport(
      await p.store.getReport(nightly.runs.find((r) => r.status === 'complete')!.run_id),
    )!;
    const gateMetrics = [...new Set(newest.gate.rules.map((r) => r.metric))];
    expect(gateMetrics.length).toBeGreaterThan(0);
    expect(nightly.metric_columns).toEqual(gateMetrics);
    // each cell is the run's stored measure (a rate, a mean, a p95), whatever its status
    for (const [i, run] of nightly.runs.entries()) {
      const stored = await p.store.getMetrics(run.run_id);
      const want = gateMetrics.map((id) => {
        const v = stored.find((m) => m.id === id)?.value;
        if (v === undefined) return null;
        return v.kind === 'rate' ? v.rate : v.kind === 'mean' ? v.mean : v.p95;
      });
      expect(nightly.metric_values[i]).toEqual(want);
    }
    const metric = gateMetrics[0]!;
    const value = (v: typeof nightly, id: string) =>
      v.metric_values[v.runs.findIndex((r) => r.run_id === id)]![0];
    const chosen = await runsListView(p.store, 'search', {
      suite: 'nightly',
      metric,
      sort: `metric:${metric}`,
      order: 'asc',
    });
    expect(chosen.metric_columns).toEqual([metric]);
    const values = chosen.runs.map((r) => value(chosen, r.run_id));
    const measured = values.filter((x): x is number => x !== null);
    expect(measured).toEqual([...measured].sort((a, b) => a - b));
    // unmeasured runs last
    expect(values.slice(measured.length).every((x) => x === null)).toBe(true);
    // sorted pages go by offset; their concatenation is the whole sorted listing
    const pages: string[] = [];
    let offset: number | undefined;
    do {
      const pg = await runsListView(p.store, 'search', {
        suite: 'nightly',
        metric,
        sort: `metric:${metric}`,
        order: 'asc',
        limit: 2,
        ...(offset !== undefined ? { offset } : {}),
      });
      expect(pg.next_before).toBeNull();
      pages.push(...pg.runs.map((r) => r.run_id));
      offset = pg.next_offset ?? undefined;
    } while (offset !== undefined);
    expect(pages).toEqual(chosen.runs.map((r) => r.run_id));
    // a range keeps the runs measured within it, bounds inclusive
    const mid = measured[Math.floor(measured.length / 2)]!;
    const ranged = await runsListView(p.store, 'search', { metric, metric_min: mid });
    expect(ranged.runs.length).toBe(measured.filter((x) => x >= mid).length);
    expect(ranged.runs.every((r) => value(ranged, r.run_id)! >= mid)).toBe(true);
    // by verdict
    const verdict = nightly.runs.find((r) => r.verdict !== null)!.verdict!;
    const byVerdict = await runsListView(p.store, 'search', { suite: 'nightly', verdict });
    expect(byVerdict.runs.map((r) => r.run_id)).toEqual(
      nightly.runs.filter((r) => r.verdict === verdict).map((r) => r.run_id),
    );
    const worstFirst = await runsListView(p.store, 'search', { sort: 'verdict' });
    const rank = { NONE: 0, PASS: 1, WATCH: 2, FAIL: 3 } as const;
    const ranks = worstFirst.runs.flatMap((r) => (r.verdict === null ? [] : [rank[r.verdict]]));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    // the mistakes a URL can make, refused with what to ask instead
    await expect(runsListView(p.store, 'search', { sort: 'nope' })).rejects.toThrow(/not a column/);
    await expect(runsListView(p.store, 'search', { metric_min: 0 })).rejects.toThrow(/none is chosen/);
    await expect(runsListView(p.store, 'search', { metric, metric_min: 1, metric_max: 0 })).rejects.toThrow(
      /above/,
    );
    await expect(runsListView(p.store, 'search', { sort: 'suite', before: 'n-3' })).rejects.toThrow(/offset/);
    await expect(runsListView(p.store, 'search', { offset: 2 })).rejects.toThrow(/before/);
    // the repository template reaches the page's document
    expect(
      (await runsListView(p.store, 'search', {}, { repositoryUrl: 'https://git.example/c/{commit}' }))
        .repository_url,
    ).toBe('https://git.example/c/{commit}');
  });

  it('run page: the stored report and the history up to that run', async () => {
    const v = await runPageView(p.store, 'search', 'ctx-1');
    expect(conforms(RunPageViewSchema, v)).toEqual([]);
    expect(v.report).toEqual(asReport(p.sync.getReport('ctx-1')));
    expect(v.history).toEqual(historyUpToRun(p.sync, 'ctx-1'));
    expect(v.history?.runs.map((r) => r.run_id)).toEqual(['ctx-1']);
    const interrupted = await runPageView(p.store, 'search', 'n-4');
    expect(interrupted.run.status).toBe('interrupted');
    await expect(runPageView(p.store, 'search', 'nope')).rejects.toBeInstanceOf(DashboardNotFound);
  });

  it('diff: diffReports of the two stored reports', async () => {
    const v = await diffView(p.store, 'search', 'ctx-1', 'ctx-2');
    expect(conforms(DiffPageViewSchema, v)).toEqual([]);
    expect(v.diff).toEqual(
      diffReports(asReport(p.sync.getReport('ctx-1'))!, asReport(p.sync.getReport('ctx-2'))!),
    );
    expect(v.a.run_id).toBe('ctx-1');
    await expect(diffView(p.store, 'search', 'ctx-1', 'nope')).rejects.toBeInstanceOf(DashboardNotFound);
  });

  it('compare session: the stored document, checked', async () => {
    const v = await compareSessionView(p.store, 'search', 'cmp-nightly');
    expect(conforms(ComparePageViewSchema, v)).toEqual([]);
    expect(v.session.variants).toHaveLength(2);
    await expect(compareSessionView(p.store, 'search', 'nope')).rejects.toBeInstanceOf(DashboardNotFound);
  });

  it('stored runs compared: the figures of rgate compare over the same two configurations, the oldest the reference', async () => {
    const v = await runsCompareView(p.store, 'search', ['ctx-2', 'ctx-1']);
    expect(conforms(RunsComparePageViewSchema, v)).toEqual([]);
    expect(v.runs.map((r) => r.run_id)).toEqual(['ctx-1', 'ctx-2']);
    expect(v.session.variants.map((x) => x.run_id)).toEqual(['ctx-1', 'ctx-2']);
    // rgate compare ran the same two weighting modes as variants (cmp-nightly): every paired figure
    // that does not depend on the resampling counts is the same
    const stored = (await compareSessionView(p.store, 'search', 'cmp-nightly')).session;
    const exact = (t: (typeof stored.tests)[number]) => [
      t.metric,
      t.n,
      t.mean_a,
      t.mean_b,
      t.wins,
      t.ties,
      t.losses,
    ];
    expect(v.session.tests.map(exact)).toEqual(stored.tests.map(exact));
    expect(v.session.tests.length).toBeGreaterThan(3);
    // the same page whatever order the runs are named in
    expect(await runsCompareView(p.store, 'search', ['ctx-1', 'ctx-2'])).toEqual(v);
  });

  it('stored runs compared: refused with the reason when they cannot be', async () => {
    const refusal = (ids: string[]) =>
      runsCompareView(p.store, 'search', ids).then(
        () => 'compared',
        (e: unknown) => (e instanceof RgateError ? `${e.code}: ${e.message}` : String(e)),
      );
    expect(await refusal(['ctx-1', 'n-1'])).toMatch(
      /^usage: run ctx-1 and the reference n-1 are runs of different suites \(context-load, nightly\)/,
    );
    expect(await refusal(['ctx-1'])).toMatch(/^usage: compare 1 run: name from 2 to 8/);
    expect(await refusal(['ctx-1', 'ctx-1'])).toBe('usage: run ctx-1 is named twice');
    await expect(runsCompareView(p.store, 'search', ['ctx-1', 'nope'])).rejects.toBeInstanceOf(
      DashboardNotFound,
    );
    // an interrupted run counted only what it observed
    expect(await refusal(['n-3', 'n-4'])).toMatch(
      /^usage: run n-4 is interrupted: its figures count only what it observed/,
    );
  });

  it('label queue: the newest session pooled over the pinned fixture, or why the server cannot', async () => {
    const without = await labelQueueView(p.store, 'search', 'context-load');
    expect(conforms(LabelQueuePageViewSchema, without)).toEqual([]);
    expect(without.queue).toBeNull();
    expect(without.source).toEqual({ kind: 'compare', id: 'cmp-nightly' });
    expect(without.why).toMatch(/rgate label queue cmp-nightly/);

    const set = loadFixtureSet('context-load', { root });
    const loadSet = async (a: RunRow['artifacts']) =>
      a.corpus_sha256 === set.artifacts.corpus_sha256 ? set : undefined;
    const withSet = await labelQueueView(p.store, 'search', 'context-load', { loadSet, k: 5 });
    expect(conforms(LabelQueuePageViewSchema, withSet)).toEqual([]);
    expect(withSet.queue).toEqual(buildLabelQueue(rankingsFromStore(p.sync, 'cmp-nightly'), set, 5));
    // a suite without a session pools its newest complete run's replays
    const nightly = await labelQueueView(p.store, 'search', 'nightly');
    expect(nightly.source).toEqual({ kind: 'run', id: 'n-6' });
    // (these runs were stored with their reports only, no observations: nothing to pool, and it says so)
    expect(nightly.queue).toBeNull();
    expect(nightly.why).toMatch(/run n-6 has no successful observation to pool/);
  });
});

describe('git commit and branch of a run', () => {
  const row = (extra: object): RunRow => ({ ...(p.sync.getRun('n-1')! as RunRow), ...extra });
  it('are read top level or under git, and absent when the upload named none', () => {
    expect(gitOf(row({}))).toEqual({ commit: null, branch: null });
    expect(gitOf(row({ commit: 'abc123', branch: 'main' }))).toEqual({ commit: 'abc123', branch: 'main' });
    expect(gitOf(row({ git: { commit: 'def', branch: 'feat/x' } }))).toEqual({
      commit: 'def',
      branch: 'feat/x',
    });
    expect(dashboardRun(row({ branch: 'main' }))).toMatchObject({
      run_id: 'n-1',
      branch: 'main',
      fixture_version: 'v1',
    });
  });
});

describe('an empty project', () => {
  it('has no suites; a trend of a suite it lacks is not found', async () => {
    const e = projectStore();
    try {
      const v = await projectView(e.store, 'empty');
      expect(v).toMatchObject({ run_count: 0, suites: [], latest_runs: [], compare_sessions: [] });
      nightlyRun(e.sync, { runId: 'only', num: 40, day: 1, status: 'interrupted' });
      const t = await suiteTrendView(e.store, 'empty', 'nightly');
      expect(t.history.runs).toEqual([]);
      expect(t.newest?.status).toBe('interrupted');
      await expect(labelQueueView(e.store, 'empty', 'nightly')).rejects.toThrow(/no complete run/);
      // a run that stored no report (it never finished) cannot be diffed
      e.sync.beginRun({
        run_id: 'running',
        suite: 'nightly',
        started_at: '2026-11-02T00:00:00Z',
        artifacts: ARTIFACTS,
        settings: SETTINGS,
      });
      await expect(diffView(e.store, 'empty', 'only', 'running')).rejects.toThrow(
        /running\): nothing to diff/,
      );
      const page = await runPageView(e.store, 'empty', 'running');
      expect(page).toMatchObject({ report: null, history: null });
    } finally {
      e.cleanup();
    }
  });
});
