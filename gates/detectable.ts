/**
 * Each rule's detectable effect: the smallest change of its compared value the run's evidence could
 * tell from noise (a drop for a min rule, a rise for a max rule), so a PASS at 39/86 says how large a
 * regression it would have caught. Rates read their counts (exact binomial); means and baseline
 * deltas read the per-query values the harness passes (per-query differences against the baseline).
 */
import type { PerQueryValues, RuleResult } from '../src/documents/index.js';
import { meanDetectable, rateDetectable } from '../src/metrics/index.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { TIMING_METRICS } from './metric-ids.js';

export function withDetectable(
  r: RuleResult,
  perQuery: PerQueryValues | undefined,
  baselinePerQuery: PerQueryValues | undefined,
): RuleResult {
  if (r.metric === 'query_count' || TIMING_METRICS.includes(r.metric)) return r;
  if (r.observed === null || r.insufficient) return r;
  const direction = r.op === 'min' ? 'drop' : 'rise';
  let detectable: RuleResult['detectable'];
  if (r.baseline) {
    const cur = perQuery?.[r.metric];
    const base = baselinePerQuery?.[r.metric];
    if (!cur || !base) return r;
    const ids = Object.keys(cur)
      .filter((q) => q in base)
      .sort(compareCodeUnits);
    const found = meanDetectable(
      ids.map((q) => cur[q]! - base[q]!),
      direction,
      'paired',
    );
    // an uplift is relative to the baseline's value: so is the change it could detect
    const b = r.baseline.value;
    detectable =
      found && r.baseline.comparison === 'uplift'
        ? b
          ? { ...found, effect: found.effect / Math.abs(b) }
          : undefined
        : found;
  } else if (r.numerator !== undefined && r.denominator !== undefined) {
    detectable = rateDetectable(r.numerator, r.denominator, direction);
  } else {
    const values = perQuery?.[r.metric];
    if (!values) return r;
    const ordered = Object.keys(values)
      .sort(compareCodeUnits)
      .map((q) => values[q]!);
    detectable = meanDetectable(ordered, direction, 'observed');
  }
  return detectable ? { ...r, detectable } : r;
}
