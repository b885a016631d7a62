/**
 * The detectable effect as a sentence, the same in every format: "a drop of 18.6 points (n=86; exact
 * binomial test, one-sided, alpha 0.05, 80% power)". A comparison's renderers use it too.
 */
import { num, pct, ruleLabel, signedNum, signedPct, withTimingRules } from '../../gates/index.js';
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

/** The section of the judgment holes: how many pairs can change the verdict, and each top-1 rule's range. */
export const HOLES_HEADING = 'Judgment holes';

export function holesLines(report: Report): string[] {
  const gate = report.gate;
  const pairs = gate.verdict_pairs;
  if (!pairs) return [];
  const shown = pairs
    .slice(0, 10)
    .map((p) => `${p.query_id} ${p.doc_id}`)
    .join(', ');
  const head =
    pairs.length === 0
      ? '0 pairs can change this verdict: graded either way, the unjudged pairs leave it as it is'
      : `${pairs.length} ${pairs.length === 1 ? 'pair' : 'pairs'} can change this verdict: ${shown}${pairs.length > 10 ? ` +${pairs.length - 10} more` : ''} (rgate label pool ${report.suite} --priority verdict queues them first)`;
  const rules = gate.rules.flatMap((r) => (r.holes ? [`${ruleLabel(r)}: ${ruleHolesText(r)}`] : []));
  return [head, ...rules];
}

/**
 * "13 unjudged top-1s; 39.4% if all were graded not useful, 52.5% if all useful: FAIL either way";
 * a ranking measure's: "7 unjudged documents in the top 10; 0.6021 if all were graded 0, 0.6833 if
 * all were graded 2: its status can change".
 */
export function ruleHolesText(r: RuleResult): string {
  const h = r.holes;
  if (!h) return '';
  const either = h.can_flip ? 'its status can change' : `${r.status.toUpperCase()} either way`;
  if (h.top_grade === undefined) {
    const range = `${pct(h.low)} if all were graded not useful, ${pct(h.high)} if all useful`;
    const what = h.unjudged === 1 ? '1 unjudged top-1' : `${h.unjudged} unjudged top-1s`;
    return `${what}; ${range}: ${either}`;
  }
  const show = (x: number) =>
    r.baseline ? (r.baseline.comparison === 'uplift' ? signedPct(x) : signedNum(x)) : num(x);
  const where = h.depth === null || h.depth === undefined ? 'in the ranking' : `in the top ${h.depth}`;
  const what = `${h.unjudged} unjudged ${h.unjudged === 1 ? 'document' : 'documents'} ${where}`;
  return `${what}; ${show(h.low)} if all were graded 0, ${show(h.high)} if all were graded ${h.top_grade}: ${either}`;
}

export function ruleHolesTexts(rules: readonly RuleResult[]): string[] {
  return rules.map(ruleHolesText);
}
