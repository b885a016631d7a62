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
