/**
 * Which metric ids a gate rule may name: whatever the metrics registry knows (gate measures,
 * `latency_ms`, ranking measures with parameters such as `ndcg_cut.5`).
 */
import { isKnownMetricId } from '../src/metrics/index.js';

/** Metrics that read timing (wall-clock dependent), so their rules are kept in the report's timing section. */
export const TIMING_METRICS: readonly string[] = ['latency_ms'];

export function isGateMetricId(id: string): boolean {
  return TIMING_METRICS.includes(id) || isKnownMetricId(id);
}
