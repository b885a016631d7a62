import { compareCodeUnits } from '../core/canonical-json.js';
import { parseRankingMetricId } from './_spec.js';
import { GATE_METRIC_IDS } from './gate/registry.js';
import { RANKING_MEASURES } from './registry.js';

/**
 * Metrics that read timing (wall-clock dependent): they live in the report's timing section, and a
 * gate rule naming one is re-stated there. Gate rules may still name them.
 */
export const TIMING_METRICS: readonly string[] = ['latency_ms'];

/**
 * Measures of the fixture's judgment completeness, not of the system: a gate rule on one of them that
 * falls short makes the fixture the cause of the verdict ("insufficient judgments").
 */
export const JUDGMENT_METRICS: readonly string[] = ['judged_top1', 'judged@10'];

/**
 * Can a gate rule name this metric? Gate measures, `latency_ms`, and any ranking measure with valid
 * parameters that yields one value per query (`map`, `ndcg_cut.5`, `P.10`, `ndcg.1=3,2=9`).
 */
export function isKnownMetricId(id: string): boolean {
  if (GATE_METRIC_IDS.includes(id) || TIMING_METRICS.includes(id)) return true;
  const spec = parseRankingMetricId(id);
  if (!spec || spec.names.length !== 1) return false;
  // gates average per-query values (breakdowns, intervals): a summary-only measure (num_q, gm_map) has none
  if (!spec.measure.printPerQuery) return false;
  // P alone means all nine cutoffs; a rule must name one: P.10
  return spec.measure.defaultParamText === '' || id.includes('.');
}

/** Every gate metric id plus the ranking ids at their default parameters, sorted. */
export function knownMetricIds(): string[] {
  const ranking = RANKING_MEASURES.filter((m) => m.printPerQuery && m.kind !== 'text').flatMap((m) => {
    const spec = parseRankingMetricId(m.id)!;
    return spec.names.map((n) => (n.startsWith(`${m.id}_`) ? `${m.id}.${n.slice(m.id.length + 1)}` : n));
  });
  return [...new Set([...GATE_METRIC_IDS, ...TIMING_METRICS, ...ranking])].sort(compareCodeUnits);
}
