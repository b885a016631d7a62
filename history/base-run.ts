/**
 * A branch's run against its base (issue 35, item 1): which stored run of the base branch a run of a
 * pull request is compared with. The run of the merge-base commit (the commit the branch forked
 * from) when the upload named that commit and a run of it is stored; else the newest run of the
 * base branch that started before the branch's run (a page asked again later names the same run).
 * Either way a complete run of the same suite, and one on the same snapshot and frozen config: a
 * base run on another is refused with what differs, never swapped for an older one silently.
 */
import { judgeVsBase } from '../gates/index.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { RgateError } from '../src/core/errors.js';
import type {
  CompareSession,
  RunPageView,
  RunRow,
  RunsComparePageView,
  VsBaseGate,
  VsBasePageView,
} from '../src/documents/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import { DashboardNotFound, requireRun, runPageView, storedReportOf } from './dashboard-views.js';
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
  const compare = await compareRowsView(store, slug, [base.run, row]);
  const gate = await vsBaseGateOf(store, slug, row, base, compare);
  return {
    run_id: runId,
    base: { run_id: base.run.run_id, chosen_by: base.kind, base_branch: base.base_branch, why: base.why },
    compare,
    ...(gate ? { gate } : {}),
  };
}

/** `/p/:project/runs/:run`: the run's page, naming its base run when it has one (the page links its vs-base page). */
export async function runPageWithBase(
  store: AsyncRunStore,
  slug: string,
  runId: string,
  projectBase: string,
): Promise<RunPageView> {
  const view = await runPageView(store, slug, runId);
  const base = await baseRunOf(store, await requireRun(store, slug, runId), projectBase);
  return base.kind === 'none' ? view : { ...view, base_run: { run_id: base.run.run_id, why: base.why } };
}

/**
 * The run's vs-base gate rules (its report's `gate.vs_base_rules`) judged against `base` with the
 * paired tests of the vs-base page (`compare` when the caller made it already); undefined when its
 * gate has none. A base run the tests cannot be made with is no PASS: its rules are NOT_EVALUATED.
 */
export async function vsBaseGateOf(
  store: AsyncRunStore,
  slug: string,
  row: RunRow,
  base: BaseRun,
  compare?: RunsComparePageView,
): Promise<VsBaseGate | undefined> {
  let rules;
  try {
    rules = (await storedReportOf(store, slug, row, 'no gate to judge')).gate.vs_base_rules ?? [];
  } catch (e) {
    // a run without a stored report (it never finished) has no gate, so no vs-base rule either
    if (e instanceof DashboardNotFound) return undefined;
    throw e;
  }
  if (rules.length === 0) return undefined;
  if (base.kind === 'none')
    return judgeVsBase(rules, {
      base: { run_id: null, why: base.why },
      comparison: { unavailable: base.why },
    });
  let session: CompareSession;
  try {
    session = (compare ?? (await compareRowsView(store, slug, [base.run, row]))).session;
  } catch (e) {
    if (!(e instanceof RgateError)) throw e;
    return judgeVsBase(rules, {
      base: { run_id: base.run.run_id, why: base.why },
      comparison: { unavailable: e.message },
    });
  }
  const [a, b] = [session.variants[0]!.id, session.variants[1]!.id];
  const better = new Map(session.metrics.map((m) => [m.id, m.better]));
  return judgeVsBase(rules, {
    base: { run_id: base.run.run_id, why: base.why },
    comparison: {
      tests: session.tests.filter((t) => t.a === a && t.b === b),
      better: (m) => better.get(m) ?? 'higher',
    },
  });
}
