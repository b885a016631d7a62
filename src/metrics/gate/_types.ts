import type { GateContext } from './_context.js';

/**
 * One query's share of a rate over requests (all its replays) or positions: its own numerator and
 * denominator. The rate's totals are the sums of these, so a subset of queries (a breakdown row)
 * aggregates the same way as the whole run.
 */
export interface QueryCounts {
  numerator: number;
  denominator: number;
}

/**
 * What a gate measure returns for one metric id: every query of the query set (in its order) with
 * the query's contribution. The aggregate value is never computed by the measure itself: `aggregate`
 * (_values.ts) derives it from these, so the totals are the sum of the per-query parts by construction.
 */
export type GateValues =
  /** a rate over queries: 1 or 0 in the denominator, null when the query is not in it */
  | { id: string; kind: 'query_rate'; perQuery: ReadonlyMap<string, 0 | 1 | null> }
  /** a rate over requests (all replays) or ranking positions: each query's own counts */
  | { id: string; kind: 'counts'; perQuery: ReadonlyMap<string, QueryCounts> }
  /** a mean over requests: each query's samples, in replay order (errored requests report none) */
  | { id: string; kind: 'mean'; perQuery: ReadonlyMap<string, readonly number[]> };

/** A gate measure: one file, one object; `perQuery` returns one GateValues per metric id it emits (most emit one). */
export interface GateMeasure {
  id: string;
  /** what the numerator and denominator (or n) count; copied into every MetricEntry */
  help: string;
  perQuery(ctx: GateContext): GateValues[];
}
