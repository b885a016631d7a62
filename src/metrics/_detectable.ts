/**
 * The detectable effect of a measured value, from the statistics layer's power functions: what a
 * gate rule and a comparison state beside their figures (src/documents/detectable.ts).
 */
import { POWER_DEFAULTS } from '../core/defaults.js';
import type { Detectable } from '../documents/index.js';
import {
  binomialDetectableDrop,
  meanSd,
  resampledDetectableEffect,
  tDetectableEffect,
  type PowerSettings,
} from '../stats/index.js';

export interface DetectableOptions {
  alpha?: number;
  power?: number;
  /** the resampling's seed, when the values are few */
  seed?: number;
}

/**
 * A rate of numerator/denominator: the smallest drop (a min rule) or rise (a max rule) the exact
 * one-sided binomial test detects. undefined when nothing was counted, or no change that way can be
 * seen at this n (a rate of 0 cannot drop; 3 units never reach a 5% test of a rate of 1/2).
 */
export function rateDetectable(
  numerator: number,
  denominator: number,
  direction: 'drop' | 'rise',
  o: DetectableOptions = {},
): Detectable | undefined {
  const { alpha, power } = settings(o);
  if (denominator <= 0) return undefined;
  const p = numerator / denominator;
  // a rise of the rate is a drop of its complement
  const effect = binomialDetectableDrop(denominator, direction === 'drop' ? p : 1 - p, alpha, power);
  if (effect === null || effect <= 0) return undefined;
  return { effect, direction, n: denominator, power, alpha, method: 'binomial_exact', basis: 'observed' };
}

/**
 * A mean over per-unit values (or per-query differences, basis 'paired'): the t quantiles from
 * `resample_below` units up, else the seeded resampling of the values themselves.
 */
export function meanDetectable(
  values: readonly number[],
  direction: Detectable['direction'],
  basis: Detectable['basis'],
  o: DetectableOptions = {},
): Detectable | undefined {
  const { alpha, power } = settings(o);
  const n = values.length;
  const s: PowerSettings = { alpha, power, sided: direction === 'either' ? 2 : 1 };
  const { sd } = meanSd(values);
  if (n < 2 || sd === 0) return undefined;
  const few = n < POWER_DEFAULTS.resample_below;
  // the resampled test looks for a rise: a drop is a rise of the negated values
  const oriented = direction === 'drop' ? values.map((v) => -v) : values;
  const effect = few
    ? resampledDetectableEffect(oriented, {
        ...s,
        seed: o.seed ?? POWER_DEFAULTS.seed,
        sims: POWER_DEFAULTS.sims,
      })
    : tDetectableEffect(n, sd, s);
  if (effect === null) return undefined;
  return { effect, direction, n, power, alpha, method: few ? 'resampled' : 't_quantiles', basis };
}

function settings(o: DetectableOptions): { alpha: number; power: number } {
  return { alpha: o.alpha ?? POWER_DEFAULTS.alpha, power: o.power ?? POWER_DEFAULTS.power };
}
