/**
 * Why a query counts against its run, decided once when the report is built and stored in the
 * report's per-query data (`failure_reasons`), so every renderer shows the same words and none
 * restates the rule. Reports written before the field existed are upgraded when they are read
 * (upgradeReport), with the same rule.
 */
import { gateAsRead, type QueryOutcome, type Report } from '../src/documents/index.js';
import {
  hasSelectionStep,
  isSemanticWin,
  semanticWinModesOf,
  type OutcomeFacts,
} from '../src/metrics/index.js';

/** The fields of a QueryOutcome that decide whether it failed. */
interface FailureFacts extends OutcomeFacts {
  actual: { ok: boolean; selection_mode?: string | undefined };
  judged?: boolean | undefined;
  leaked_tags?: string[] | undefined;
  determinism_shown?: boolean | undefined;
}

/** Gate measures that judge a benchmark query by its top-1 answer. */
const TOP1_METRICS: readonly string[] = ['top1_useful_rate', 'top1_useful_any_mode'];
/** Gate measures that judge a query by its stability across replays. */
const STABILITY_METRICS: readonly string[] = ['replay_determinism', 'fallback_determinism'];

/**
 * What a run's gate judges queries on: `ruled` is the metrics its rules read, or undefined for a run
 * without a gate (then top-1 misses are listed as information, and every reason is shown).
 */
export interface JudgedBy {
  top1: boolean;
  stability: boolean;
}

export function judgedBy(ruled: readonly string[] | undefined): JudgedBy {
  if (ruled === undefined) return { top1: true, stability: true };
  return {
    top1: ruled.some((m) => TOP1_METRICS.includes(m)),
    stability: ruled.some((m) => STABILITY_METRICS.includes(m)),
  };
}

/**
 * An unmet probe expectation no gate rule reads (fallback_expectation_met ungated): shown with the
 * query, but it does not put the query among those that count against the gate.
 */
export const EXPECTATION_NOT_GATED = 'expectation not met (not gated)';

/**
 * Why a query counts against the run, in a few words each; empty when it does not. A top-1 miss or
 * an unstable ranking counts only when a rule of the gate reads it (a passing context-load contract
 * gate, which judges no top-1, lists no query as failing for its top-1); a failed request and a leak
 * always count. A probe is judged
 * by its expectation only (meeting it is a success, whatever its top-1), and only where a selection
 * step exists (its expectations are selection modes); unmet, it counts against the gate only when a
 * rule reads fallback_expectation_met; a probe the system cannot take has no expectation measured. A
 * benchmark query by its top-1, semantic wins only where a selection step exists; a query without
 * any judgment has no top-1 verdict to fail.
 */
function failureReasons(
  q: FailureFacts,
  selection: boolean,
  semanticWinModes: readonly string[],
  by: JudgedBy,
  expectationGated: boolean,
): string[] {
  const why: string[] = [];
  if (!q.actual.ok) why.push('error');
  else if (q.kind === 'benchmark' && q.judged !== false && by.top1) {
    if (selection && q.top1 === 'useful' && !isSemanticWin(q.top1, q.actual.selection_mode, semanticWinModes))
      why.push(
        q.actual.selection_mode?.startsWith('fallback')
          ? 'useful via fallback, not semantic'
          : 'useful, not semantic',
      );
    else if (q.top1 === 'not_useful') why.push('top-1 not useful');
    else if (q.top1 === 'unjudged') why.push('top-1 unjudged (counts as not useful)');
    else if (q.top1 === 'no_answer') why.push('no answer');
  } else if (q.kind === 'probe' && selection && q.expectation_met === false)
    why.push(expectationGated ? 'expectation not met' : EXPECTATION_NOT_GATED);
  // only replays that ran are compared: a query short of a replay is unstable only if two that ran differ
  if (!q.deterministic && q.determinism_shown !== false && by.stability) why.push('unstable across replays');
  if (q.leaked_tags?.length) why.push(`leaked ${q.leaked_tags.join(', ')}`);
  return why;
}

/** Does a gate rule read the probes' expectations? */
function expectationGated(ruleMetrics: readonly string[]): boolean {
  return ruleMetrics.includes('fallback_expectation_met');
}

/**
 * The queries of a report with their failure reasons, and those that count against the run (an
 * ungated unmet expectation alone does not).
 */
export function withFailureReasons(
  queries: readonly QueryOutcome[],
  selection: boolean,
  semanticWinModes: readonly string[],
  ruled: readonly string[] | undefined,
): { queries: QueryOutcome[]; failing: QueryOutcome[] } {
  const by = judgedBy(ruled);
  const gated = expectationGated(ruled ?? []);
  const all = queries.map((q) => ({
    ...q,
    failure_reasons: failureReasons(q, selection, semanticWinModes, by, gated),
  }));
  return {
    queries: all,
    failing: all.filter((q) => q.failure_reasons.some((r) => r !== EXPECTATION_NOT_GATED)),
  };
}

/**
 * A report as this rgate's renderers read it: one written before `failure_reasons` (or before
 * `judging`) existed gets them here, decided by today's rule exactly as the harness decides them.
 * A current report is returned as it is.
 */
export function upgradeReport(read: Report): Report {
  // a no-gate report written before NONE said PASS: it is read as NONE
  const gate = gateAsRead(read.gate);
  const report = gate === read.gate ? read : { ...read, gate };
  const current =
    report.judging !== undefined &&
    report.queries.every((q) => q.failure_reasons !== undefined) &&
    report.failing_queries.every((q) => q.failure_reasons !== undefined);
  if (current) return report;
  const selection =
    report.judging?.selection_step ??
    hasSelectionStep(
      report.queries,
      report.gate.rules.map((r) => r.metric),
    );
  const modes = semanticWinModesOf(report);
  const gated = report.gate.verdict !== 'NONE';
  const by = judgedBy(gated ? report.gate.rules.map((r) => r.metric) : undefined);
  const reasons = (q: QueryOutcome): QueryOutcome => ({
    ...q,
    failure_reasons:
      q.failure_reasons ??
      failureReasons(q, selection, modes, by, expectationGated(report.gate.rules.map((r) => r.metric))),
  });
  return {
    ...report,
    // an older report did not state its top-1 rule: an empty rule is shown as none
    judging: report.judging ?? { top1_useful_rule: '', selection_step: selection },
    queries: report.queries.map(reasons),
    failing_queries: report.failing_queries.map(reasons),
  };
}
