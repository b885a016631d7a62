/**
 * A branch's run against its base (issue 35, item 1): which stored run of the base branch a run of a
 * pull request is compared with. The run of the merge-base commit (the commit the branch forked
 * from) when the upload named that commit and a run of it is stored; else the newest run of the
 * base branch that started before the branch's run (a page asked again later names the same run).
 * Either way a complete run of the same suite, and one on the same snapshot and frozen config: a
 * base run on another is refused with what differs, never swapped for an older one silently.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type { RunRow, VsBasePageView } from '../src/documents/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import { DashboardNotFound, requireRun } from './dashboard-views.js';
import { compareRowsView, rowsNotComparable } from './runs-compare.js';

/** how many of the base branch's newest runs of the suite are searched for the merge-base commit */
export const BASE_RUNS_SEARCHED = 200;

/** The base run of a branch's run, how it was chosen, or why there is none. */
export type BaseRun =
  | { kind: 'merge_base'; run: RunRow; base_branch: string; why: string }
  | { kind: 'newest'; run: RunRow; base_branch: string; why: string }
  | { kind: 'none'; base_branch: string | null; why: string };

/**
 * The run `row` is compared with. `projectBase` is the project's base branch; the run's own
 * (`git.base_branch`, the pull request's target as CI named it) wins, as a PR into a release branch
 * is not compared with `main`.
 */
export async function baseRunOf(store: AsyncRunStore, row: RunRow, projectBase: string): Promise<BaseRun> {
  const base = row.git?.base_branch ?? projectBase;
  const branch = row.git?.branch;
  if (branch === undefined)
    return { kind: 'none', base_branch: null, why: `run ${row.run_id} was uploaded without its branch` };
  if (branch === base)
    return {
      kind: 'none',
      base_branch: base,
      why: `run ${row.run_id} is a run of the base branch ${base} itself`,
    };
  const candidates = (
    await store.listRuns({ suite: row.suite, branch: base, status: 'complete', limit: BASE_RUNS_SEARCHED })
  ).filter((r) => r.run_id !== row.run_id);
  const mergeBase = row.git?.merge_base;
  // newest first (the store's order): of several runs of the merge-base commit, its newest
  const ofCommit = mergeBase === undefined ? undefined : candidates.find((r) => r.git?.commit === mergeBase);
  let chosen: BaseRun;
  if (ofCommit) {
    chosen = {
      kind: 'merge_base',
      run: ofCommit,
      base_branch: base,
      why: `the run of the merge-base commit ${mergeBase!.slice(0, 12)} on ${base}`,
    };
  } else {
    const before = candidates.find(
      (r) =>
        compareCodeUnits(r.started_at, row.started_at) < 0 ||
        (r.started_at === row.started_at && compareCodeUnits(r.run_id, row.run_id) < 0),
    );
    const fallback =
      mergeBase === undefined
        ? 'the upload named no merge-base commit'
        : `no run of the merge-base commit ${mergeBase.slice(0, 12)} is stored`;
    if (!before)
      return {
        kind: 'none',
        base_branch: base,
        why: `${fallback}, and no complete run of suite ${row.suite} on ${base} started before run ${row.run_id}`,
      };
    chosen = {
      kind: 'newest',
      run: before,
      base_branch: base,
      why: `the newest run of ${base} before this run (${fallback})`,
    };
  }
  const differs = rowsNotComparable(chosen.run, row);
  if (differs) return { kind: 'none', base_branch: base, why: `${chosen.why}: ${differs}` };
  return chosen;
}

/** `/p/:project/runs/:run/vs-base`: the run compared with its base run (the reference), and which and why. */
export async function vsBaseView(
  store: AsyncRunStore,
  slug: string,
  runId: string,
  projectBase: string,
): Promise<VsBasePageView> {
  const row = await requireRun(store, slug, runId);
  const base = await baseRunOf(store, row, projectBase);
  if (base.kind === 'none')
    throw new DashboardNotFound(`run ${runId} has no base run to compare with: ${base.why}`);
  return {
    run_id: runId,
    base: { run_id: base.run.run_id, chosen_by: base.kind, base_branch: base.base_branch, why: base.why },
    compare: await compareRowsView(store, slug, [base.run, row]),
  };
}
