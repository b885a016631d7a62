/**
 * A report's queries read as values of the query-level gate measures. The gate measures decide each
 * query with the predicates here and write what they read into its QueryOutcome (top1,
 * actual.selection_mode, expectation_met, deterministic), so comparisons take a query's value from
 * `outcomeValues` instead of restating a measure's rule. Types are structural (anything shaped like
 * a QueryOutcome). Internal to the measures layer (`_`): its index exports what others read.
 */

/**
 * Seed 001's top-1 success: judged useful and selected semantically (a fallback rescue does not
 * count). Which modes are "semantic" is the contract's setting (`semantic_win_modes`).
 */
export function isSemanticWin(
  top1: string,
  selectionMode: string | undefined,
  semanticWinModes: readonly string[],
): boolean {
  return top1 === 'useful' && selectionMode !== undefined && semanticWinModes.includes(selectionMode);
}

/**
 * A QueryOutcome's top-1 id as the gate context's top1 takes it: selected_id, else the first ranked
 * id (undefined: neither, an empty or errored answer).
 */
export function top1IdOf(q: {
  actual: { selected_id?: string | undefined; top_ids: readonly string[] };
}): string | undefined {
  return q.actual.selected_id ?? q.actual.top_ids[0];
}

/** What a report's gate counted as semantic wins then: reports older than the setting counted `semantic` only. */
export const LEGACY_SEMANTIC_WIN_MODES: readonly string[] = ['semantic'];

/** The semantic-win modes a report was measured with (see LEGACY_SEMANTIC_WIN_MODES for old reports). */
export function semanticWinModesOf(report: {
  system: { semantic_win_modes?: readonly string[] | undefined };
}): readonly string[] {
  return report.system.semantic_win_modes ?? LEGACY_SEMANTIC_WIN_MODES;
}

/** The fields of a QueryOutcome the query-level gate measures are read from. */
export interface OutcomeFacts {
  kind: 'benchmark' | 'probe';
  top1: string;
  /** the query has at least one judgment (absent in reports older than the field) */
  judged?: boolean | undefined;
  actual: { selection_mode?: string | undefined };
  expectation_met?: boolean | undefined;
  deterministic: boolean;
}

/** 1: in the measure's numerator; 0: in its denominator only; absent: not counted (see outcomeValues). */
export interface OutcomeValues {
  top1_useful_rate?: 0 | 1;
  top1_useful_any_mode?: 0 | 1;
  fallback_expectation_met?: 0 | 1;
  replay_determinism: 0 | 1;
}

/**
 * One query's value for each query-level gate measure, as its QueryOutcome tells: exactly the
 * measure's own per-query value. The two top-1 rates count the benchmark queries that have a
 * judgment, whatever their top-1 (an unjudged top-1 counts 0, as the gate counts it). A report
 * older than the `judged` field does not say which queries have judgments: there the rates count
 * the benchmark queries whose top-1 is judged, which may be fewer than the gate counted.
 * Keys come in the order written here (a comparison's per-query document keeps it).
 */
export function outcomeValues(q: OutcomeFacts, semanticWinModes: readonly string[]): OutcomeValues {
  const bit = (b: boolean): 0 | 1 => (b ? 1 : 0);
  const counted = q.judged ?? q.top1 !== 'unjudged';
  const top1 =
    q.kind === 'benchmark' && counted
      ? {
          top1_useful_rate: bit(isSemanticWin(q.top1, q.actual.selection_mode, semanticWinModes)),
          top1_useful_any_mode: bit(q.top1 === 'useful'),
        }
      : {};
  return {
    ...top1,
    ...(q.kind === 'probe' && q.expectation_met !== undefined
      ? { fallback_expectation_met: bit(q.expectation_met) }
      : {}),
    replay_determinism: bit(q.deterministic),
  };
}

/**
 * Metrics that only mean something where the system has a selection step (seed 001: semantic
 * selection with a fallback chain). A plain ranker (BM25, context-load) reports none of them.
 */
export const SELECTION_METRICS: readonly string[] = [
  'top1_useful_rate',
  'fallback_determinism',
  'selection_mode_reporting',
  'fallback_expectation_met',
];

/**
 * Does selection data apply to a run: some answer reported a selection mode other than no_match, or
 * the gate reads a selection metric (then a system that never reports one must be shown failing it).
 * A no_match is no evidence of a selection step: a plain ranking's contract reads an empty answer as
 * one (retrieval-result-v1, context-load-v0, context-pack), and one empty answer must not turn a
 * ranker's report into a selection report (docs/DECISIONS.md 2026-11-26: an empty plain ranking).
 */
export function hasSelectionStep(
  queries: readonly { actual: { selection_mode?: string | undefined } }[],
  gateMetrics: readonly string[],
): boolean {
  return (
    queries.some((q) => q.actual.selection_mode !== undefined && q.actual.selection_mode !== 'no_match') ||
    gateMetrics.some((m) => SELECTION_METRICS.includes(m))
  );
}
