/**
 * Value builders for gate measures. The layer table lets src/metrics import only src/core, so the
 * Wilson interval and the percentile bootstrap are restated here; src/metrics/gate/values.test.ts
 * proves they equal src/stats/wilson-interval.ts and src/stats/bootstrap.ts to the last bit.
 */
import { createPrng } from '../../core/prng.js';
import type { MeanValue, QuantileValue, RateValue } from '../../core/types.js';

const Z95 = 1.959963984540054;

/** Wilson score interval (Wilson 1927; Newcombe 1998 method 3), clamped to [0, 1]. */
export function wilson(k: number, n: number, z = Z95): [number, number] {
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** A rate that shows what it counted; denominator 0 is "not measured" (rate and interval null). */
export function rate(numerator: number, denominator: number): RateValue {
  if (denominator === 0) return { kind: 'rate', numerator, denominator, rate: null, wilson95: null };
  return {
    kind: 'rate',
    numerator,
    denominator,
    rate: numerator / denominator,
    wilson95: wilson(numerator, denominator),
  };
}

export const BOOTSTRAP_RESAMPLES = 2000;

/** Percentile bootstrap 95% interval of the mean (Efron & Tibshirani 1993, ch. 13), seeded. */
export function bootstrapMeanCi(
  values: readonly number[],
  seed: number,
  resamples = BOOTSTRAP_RESAMPLES,
): [number, number] {
  const n = values.length;
  const prng = createPrng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[prng.int(n)] as number;
    means[r] = s / n;
  }
  means.sort();
  return [percentileSorted(means, 0.025), percentileSorted(means, 0.975)];
}

/** Linear interpolation between closest ranks (Hyndman & Fan 1996 type 7), on sorted data. */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/** Mean over n units with a seeded bootstrap 95% interval; n = 0 is "not measured". */
export function mean(values: readonly number[], seed: number, precomputedMean?: number): MeanValue {
  const n = values.length;
  if (n === 0) return { kind: 'mean', n: 0, mean: null, ci95: null };
  let s = 0;
  for (const v of values) s += v;
  return { kind: 'mean', n, mean: precomputedMean ?? s / n, ci95: bootstrapMeanCi(values, seed) };
}

/** p50/p95/p99 by the nearest-rank method (the smallest sample with at least p of the data at or below). */
export function quantiles(samples: readonly number[]): QuantileValue {
  const n = samples.length;
  if (n === 0) return { kind: 'quantiles', n: 0, p50: null, p95: null, p99: null };
  const s = Float64Array.from(samples).sort();
  const at = (p: number): number => s[Math.max(0, Math.ceil(p * n) - 1)] as number;
  return { kind: 'quantiles', n, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
