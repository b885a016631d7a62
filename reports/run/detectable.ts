/**
 * The detectable effect as a sentence, the same in every format: "a drop of 18.6 points (n=86; exact
 * binomial test, one-sided, alpha 0.05, 80% power)". A comparison's renderers use it too.
 */
import { num, pct, ruleLabel, withTimingRules } from '../../gates/index.js';
import type { Detectable, Report, RuleResult } from '../../src/documents/index.js';

const METHOD: Record<Detectable['method'], string> = {
  binomial_exact: 'exact binomial test',
  t_quantiles: 't quantiles',
  resampled: 'seeded resampling of the values',
};

/** How the effect reads: rate points, a relative change, or the measure's own units. */
export type EffectUnit = 'points' | 'relative' | 'value';

export function detectableText(d: Detectable, unit: EffectUnit): string {
  const size =
    unit === 'points'
      ? `${(d.effect * 100).toFixed(1)} points`
      : unit === 'relative'
        ? pct(d.effect)
        : num(d.effect);
  const what = d.direction === 'either' ? `a change of ${size} either way` : `a ${d.direction} of ${size}`;
  const of = d.basis === 'paired' ? ' per-query differences' : '';
  return `${what} (n=${d.n}${of}; ${METHOD[d.method]}, ${d.direction === 'either' ? 'two-sided' : 'one-sided'}, alpha ${d.alpha}, ${Math.round(d.power * 100)}% power)`;
}

/** A rule's detectable effect as text, '' when it states none. */
export function ruleDetectableText(r: RuleResult): string {
  if (!r.detectable) return '';
  const unit: EffectUnit =
    r.baseline?.comparison === 'uplift' ? 'relative' : r.denominator !== undefined ? 'points' : 'value';
  return detectableText(r.detectable, unit);
}

export function ruleDetectableTexts(rules: readonly RuleResult[]): string[] {
  return rules.map(ruleDetectableText);
}

/** One line per gate rule that states its detectable effect, in the gate's order. */
export function detectableLines(report: Report): string[] {
  const gate = withTimingRules(report.gate, report.timing.timing_rules);
  return gate.rules.flatMap((r) => (r.detectable ? [`${ruleLabel(r)}: ${ruleDetectableText(r)}`] : []));
}

/** The heading the sections share. */
export const DETECTABLE_HEADING = 'Smallest change this run could detect';
