/**
 * Which metric ids a gate rule may name: whatever the metrics registry knows (gate measures,
 * `latency_ms`, ranking measures with parameters such as `ndcg_cut.5`).
 */
import {
  isKnownMetricId,
  JUDGMENT_METRICS,
  SELECTION_METRICS,
  TIMING_METRICS,
} from '../src/metrics/index.js';

export { JUDGMENT_METRICS, SELECTION_METRICS, TIMING_METRICS };

export function isGateMetricId(id: string): boolean {
  return isKnownMetricId(id);
}
