import { describe, expect, it } from 'vitest';
import { bootstrapMeanCi } from '../../stats/bootstrap.js';
import { wilsonInterval } from '../../stats/wilson-interval.js';
import { mean, quantiles, rate } from './_values.js';

describe('gate value builders', () => {
  it('a rate carries the Wilson interval of src/stats', () => {
    for (const [k, n] of [
      [0, 1],
      [81, 263],
      [15, 148],
      [50, 50],
      [7, 9],
    ] as const) {
      expect(rate(k, n).wilson95).toEqual(wilsonInterval(k, n));
    }
  });

  it('a mean carries the seeded bootstrap interval of src/stats', () => {
    const v = [0.1, 0.9, 0.4, 0.4, 0.0, 1.0, 0.33];
    expect(mean(v, 17).ci95).toEqual(bootstrapMeanCi(v, { seed: 17 }));
    expect(mean([], 17)).toEqual({ kind: 'mean', n: 0, mean: null, ci95: null });
  });

  it('rates show their counts; quantiles use nearest rank', () => {
    expect(rate(0, 0)).toEqual({ kind: 'rate', numerator: 0, denominator: 0, rate: null, wilson95: null });
    expect(rate(4, 5).rate).toBe(0.8);
    expect(quantiles([5, 1, 4, 2, 3])).toEqual({ kind: 'quantiles', n: 5, p50: 3, p95: 5, p99: 5 });
    expect(quantiles([])).toEqual({ kind: 'quantiles', n: 0, p50: null, p95: null, p99: null });
  });
});
