import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from './keywords.js';

/**
 * How the detectable effect was computed: 'binomial_exact' (a rate: the exact binomial test's own
 * power), 't_quantiles' (a mean: (t_{1-alpha} + t_{power}) * sd / sqrt(n)), 'resampled' (a mean over
 * fewer than 30 units: the observed values resampled with the seeded PRNG, where the t shape is poor).
 */
export const DetectableMethodSchema = StringEnum(['binomial_exact', 't_quantiles', 'resampled']);
export type DetectableMethod = Static<typeof DetectableMethodSchema>;

/**
 * The smallest change the evidence could detect: at n units and the spread observed, a change of
 * `effect` (in the measure's own units, a rate's as a fraction) is detected with probability `power`
 * by a test at level `alpha`. Small n or large spread: a large effect, so a PASS or a tie says little.
 */
export const DetectableSchema = Closed({
  effect: Type.Number({ minimum: 0 }),
  /** 'drop' / 'rise' for a one-sided test (a gate rule looks one way), 'either' for a two-sided one */
  direction: StringEnum(['drop', 'rise', 'either']),
  n: Type.Integer({ minimum: 0 }),
  power: Type.Number(),
  alpha: Type.Number(),
  method: DetectableMethodSchema,
  /** 'observed': a change of the measure from the value observed; 'paired': of per-query differences */
  basis: StringEnum(['observed', 'paired']),
});
export type Detectable = Static<typeof DetectableSchema>;
