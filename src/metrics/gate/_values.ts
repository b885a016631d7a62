/** Value builders for gate measures: rates with Wilson intervals, means with bootstrap intervals. */
import type { MeanValue, QuantileValue, RateValue } from '../../documents/index.js';
import { bootstrapMeanCi } from '../../stats/bootstrap.js';
import { wilsonInterval } from '../../stats/wilson-interval.js';

/** A rate that shows what it counted; denominator 0 is "not measured" (rate and interval null). */
export function rate(numerator: number, denominator: number): RateValue {
  if (denominator === 0) return { kind: 'rate', numerator, denominator, rate: null, wilson95: null };
  return {
    kind: 'rate',
    numerator,
    denominator,
    rate: numerator / denominator,
    wilson95: wilsonInterval(numerator, denominator),
  };
}

/** Mean over n units with a seeded bootstrap 95% interval; n = 0 is "not measured". */
export function mean(values: readonly number[], seed: number, precomputedMean?: number): MeanValue {
  const n = values.length;
  if (n === 0) return { kind: 'mean', n: 0, mean: null, ci95: null };
  let s = 0;
  for (const v of values) s += v;
  return { kind: 'mean', n, mean: precomputedMean ?? s / n, ci95: bootstrapMeanCi(values, { seed }) };
}

/** p50/p95/p99 by the nearest-rank method (the smallest sample with at least p of the data at or below). */
export function quantiles(samples: readonly number[]): QuantileValue {
  const n = samples.length;
  if (n === 0) return { kind: 'quantiles', n: 0, p50: null, p95: null, p99: null };
  const s = Float64Array.from(samples).sort();
  const at = (p: number): number => s[Math.max(0, Math.ceil(p * n) - 1)] as number;
  return { kind: 'quantiles', n, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
