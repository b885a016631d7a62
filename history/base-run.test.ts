import { describe, expect, it } from 'vitest';
import type { GitRef, Report } from '../src/documents/index.js';
import { asAsync } from '../src/store/async-store.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { artifacts, outcome, report } from '../test/history-helpers.js';
import { baseRunOf, vsBaseView } from './base-run.js';

/** A complete run of suite ctx made on `git`, started at `at` (minutes after midnight). */
function run(store: MemoryRunStore, id: string, at: number, git: GitRef, r: Report = reportOf(id)): void {
  const startedAt = `2026-11-22T00:${String(at).padStart(2, '0')}:00Z`;
  store.beginRun({
    run_id: id,
    suite: r.suite,
    started_at: startedAt,
    artifacts: r.artifacts,
    settings: r.settings,
    git,
  });
  store.finishRun(id, {
    status: 'complete',
    finished_at: startedAt,
    gate_id: r.gate.gate_id,
    verdict: r.gate.verdict,
    metrics: r.metrics,
    report: r,
  });
}

const reportOf = (id: string, version = 'v1') =>
  report({
    runId: id,
    artifacts: artifacts(version),
    queries: [outcome('q1', { top1: 'useful' }), outcome('q2', { top1: 'not_useful' })],
  });

const MERGE_BASE = 'b'.repeat(40);

/** main: m1 (merge base) at :01, m2 at :02; the branch's run at :03; m3 (after it) at :04. */
function history(): MemoryRunStore {
  const store = new MemoryRunStore();
  run(store, 'm1', 1, { branch: 'main', commit: MERGE_BASE });
  run(store, 'm2', 2, { branch: 'main', commit: 'c'.repeat(40) });
  run(store, 'pr', 3, { branch: 'feature', commit: 'f'.repeat(40), pr: 4, merge_base: MERGE_BASE });
  run(store, 'm3', 4, { branch: 'main', commit: 'd'.repeat(40) });
  return store;
}

describe('baseRunOf', () => {
  it('the run of the merge-base commit when one is stored, though newer base runs exist', async () => {
    const store = history();
    const base = await baseRunOf(asAsync(store), store.getRun('pr')!, 'main');
    expect(base.kind).toBe('merge_base');
    expect(base.kind !== 'none' && base.run.run_id).toBe('m1');
    expect(base.why).toContain(`merge-base commit ${MERGE_BASE.slice(0, 12)} on main`);
  });

  it('else the newest base-branch run started before the branch run, and says why', async () => {
    const store = new MemoryRunStore();
    run(store, 'm1', 1, { branch: 'main' });
    run(store, 'm2', 2, { branch: 'main' });
    run(store, 'pr', 3, { branch: 'feature', merge_base: 'e'.repeat(40) });
    run(store, 'm3', 4, { branch: 'main' });
    run(store, 'nb', 5, { branch: 'feature' });
    const base = await baseRunOf(asAsync(store), store.getRun('pr')!, 'main');
    expect(base.kind).toBe('newest');
    expect(base.kind !== 'none' && base.run.run_id).toBe('m2');
    expect(base.why).toContain(`no run of the merge-base commit ${'e'.repeat(12)} is stored`);
    const noMergeBase = await baseRunOf(asAsync(store), store.getRun('nb')!, 'main');
    expect(noMergeBase.kind !== 'none' && noMergeBase.run.run_id).toBe('m3');
    expect(noMergeBase.why).toContain('the upload named no merge-base commit');
  });

  it("the project's base branch, unless the run named its own (a PR into a release branch)", async () => {
    const store = new MemoryRunStore();
    run(store, 'd1', 1, { branch: 'develop' });
    run(store, 'r1', 2, { branch: 'release-2' });
    run(store, 'pr', 3, { branch: 'feature' });
    run(store, 'pr2', 4, { branch: 'fix', base_branch: 'release-2' });
    const a = await baseRunOf(asAsync(store), store.getRun('pr')!, 'develop');
    expect(a.kind !== 'none' && a.run.run_id).toBe('d1');
    const b = await baseRunOf(asAsync(store), store.getRun('pr2')!, 'develop');
    expect(b.kind !== 'none' && b.run.run_id).toBe('r1');
  });

  it('none: no base-branch run before it, a run of the base branch itself, a run without a branch', async () => {
    const store = new MemoryRunStore();
    run(store, 'pr', 1, { branch: 'feature' });
    run(store, 'm1', 2, { branch: 'main' });
    run(store, 'nobranch', 3, { commit: 'a'.repeat(40) });
    const s = asAsync(store);
    expect(await baseRunOf(s, store.getRun('pr')!, 'main')).toMatchObject({
      kind: 'none',
      why: expect.stringContaining('no complete run of suite ctx on main started before run pr'),
    });
    expect(await baseRunOf(s, store.getRun('m1')!, 'main')).toMatchObject({
      kind: 'none',
      why: 'run m1 is a run of the base branch main itself',
    });
    expect(await baseRunOf(s, store.getRun('nobranch')!, 'main')).toMatchObject({
      kind: 'none',
      base_branch: null,
    });
  });

  it('a base run on another snapshot is refused with what differs, not swapped for an older one', async () => {
    const store = new MemoryRunStore();
    run(store, 'm1', 1, { branch: 'main' });
    // the base branch moved to a new query set (queries or judgments changed)
    const moved = report({
      runId: 'm2',
      artifacts: artifacts('v2', { query_set_sha256: `sha256:${'e'.repeat(64)}` }),
      queries: [outcome('q1', { top1: 'useful' })],
    });
    run(store, 'm2', 2, { branch: 'main' }, moved);
    run(store, 'pr', 3, { branch: 'feature' });
    const base = await baseRunOf(asAsync(store), store.getRun('pr')!, 'main');
    expect(base.kind).toBe('none');
    expect(base.why).toMatch(/newest run of main .*run pr and the reference m2 ran different query sets/);
  });
});

describe('vsBaseView', () => {
  it('compares the run with its base run as the reference, whichever started first', async () => {
    const store = history();
    const v = await vsBaseView(asAsync(store), 'proj', 'pr', 'main');
    expect(v.base).toMatchObject({ run_id: 'm1', chosen_by: 'merge_base', base_branch: 'main' });
    expect(v.compare.runs.map((r) => r.run_id)).toEqual(['m1', 'pr']);
    await expect(vsBaseView(asAsync(store), 'proj', 'm3', 'main')).rejects.toThrow(
      'run m3 has no base run to compare with: run m3 is a run of the base branch main itself',
    );
  });
});
