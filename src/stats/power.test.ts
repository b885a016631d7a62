import { describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { pairedTTest } from './t-test.js';
import {
  binomialCdf,
  binomialCritical,
  binomialDetectableDrop,
  binomialDropPower,
  binomialUnitsNeeded,
  normalQuantile,
  resampledDetectableEffect,
  resampledPower,
  studentQuantile,
  tDetectableEffect,
  tUnitsNeeded,
  type PowerSettings,
} from './power.js';

/** C(n, k) exactly, for binomial sums computed the long way (BigInt, no rounding). */
function choose(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** P(X <= k | n, p) summed term by term: an independent check of the incomplete-beta route. */
function cdfBySum(k: number, n: number, p: number): number {
  let s = 0;
  for (let i = 0; i <= k; i++) s += Number(choose(n, i)) * p ** i * (1 - p) ** (n - i);
  return s;
}

/** Standard normal draws (Box-Muller) from the project's seeded PRNG. */
function normals(seed: number): () => number {
  const prng = createPrng(seed);
  return () => Math.sqrt(-2 * Math.log(1 - prng.next())) * Math.cos(2 * Math.PI * prng.next());
}

const TWO: PowerSettings = { alpha: 0.05, power: 0.8, sided: 2 };

describe('quantiles', () => {
  it('gives the textbook normal and t critical values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 8);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212336, 8);
    expect(normalQuantile(0.05)).toBeCloseTo(-1.644853627, 8);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306, 7);
    // t tables: t_{0.975, 10} = 2.228139, t_{0.975, 50} = 2.008559, t_{0.95, 1} = 6.313752
    expect(studentQuantile(0.975, 10)).toBeCloseTo(2.2281388519649385, 10);
    expect(studentQuantile(0.975, 50)).toBeCloseTo(2.0085591121007607, 10);
    expect(studentQuantile(0.95, 1)).toBeCloseTo(6.313751514675, 9);
    expect(studentQuantile(0.2, 7)).toBeCloseTo(-studentQuantile(0.8, 7), 12);
  });
});

describe('exact binomial', () => {
  it('sums to the long-hand binomial', () => {
    // P(X <= 5 | 20, 1/2) = (1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20 = 21700 / 1048576
    expect(binomialCdf(5, 20, 0.5)).toBeCloseTo(21700 / 1048576, 14);
    for (const [k, n, p] of [
      [3, 10, 0.3],
      [40, 86, 0.45],
      [60, 86, 0.8],
      [0, 12, 0.9],
    ] as const)
      expect(binomialCdf(k, n, p)).toBeCloseTo(cdfBySum(k, n, p), 12);
  });

  it('rejects at the published critical count and has the power the sum gives', () => {
    // n 20, p0 1/2, one-sided 5%: P(X <= 5) = 0.0207 <= 0.05 < P(X <= 6) = 0.0577
    expect(binomialCritical(20, 0.5, 0.05)).toBe(5);
    expect(binomialDropPower(20, 0.5, 0.2, 0.05)).toBeCloseTo(cdfBySum(5, 20, 0.2), 12);
    expect(binomialDropPower(20, 0.5, 0.2, 0.05)).toBeCloseTo(0.8042, 4);
    // no count of 3 is rare enough at 5% when p0 = 0.5 (P(X = 0) = 1/8)
    expect(binomialCritical(3, 0.5, 0.05)).toBe(-1);
    expect(binomialDetectableDrop(3, 0.5, 0.05, 0.8)).toBeNull();
  });

  it('finds the drop whose power is the target, and the n that reaches it', () => {
    const drop = binomialDetectableDrop(86, 39 / 86, 0.05, 0.8)!;
    expect(binomialDropPower(86, 39 / 86, 39 / 86 - drop, 0.05)).toBeCloseTo(0.8, 6);
    // a rate of 1: the first miss rejects; power 1 - p1^n = 0.8 gives p1 = 0.2^(1/n)
    expect(binomialDetectableDrop(30, 1, 0.05, 0.8)).toBeCloseTo(1 - 0.2 ** (1 / 30), 8);
    const n = binomialUnitsNeeded(0.8, 0.1, 0.05, 0.8)!;
    expect(binomialDropPower(n, 0.8, 0.7, 0.05)).toBeGreaterThanOrEqual(0.8);
    for (let m = 1; m < n; m++) expect(binomialDropPower(m, 0.8, 0.7, 0.05)).toBeLessThan(0.8);
    // within a few queries of the normal approximation's (za sqrt(p0 q0) + zb sqrt(p1 q1))^2 / d^2 = 109.3
    expect(Math.abs(n - 109.3)).toBeLessThan(15);
  });
});

describe('t test power', () => {
  it("gives G*Power's paired-t sizes (two-sided 5%, 80% power) and Lehr's 8/d^2 in the limit", () => {
    expect(tUnitsNeeded(1, 0.5, TWO)).toBe(34);
    expect(tUnitsNeeded(1, 0.8, TWO)).toBe(15);
    expect(tUnitsNeeded(1, 0.2, TWO)).toBe(199);
    // (z_{0.975} + z_{0.8})^2 = 7.849: a small effect needs about 7.849 / d^2 units
    expect(tUnitsNeeded(1, 0.01, TWO)! / (7.849 / 0.01 ** 2)).toBeCloseTo(1, 3);
    expect(tDetectableEffect(34, 1, TWO)).toBeLessThanOrEqual(0.5);
    expect(tDetectableEffect(33, 1, TWO)).toBeGreaterThan(0.5);
    expect(tDetectableEffect(1, 1, TWO)).toBeNull();
  });

  it('detects its effect in a seeded simulation about 80% of the time', () => {
    const draw = normals(7);
    const sd = 0.3;
    const effect = 0.1;
    const n = tUnitsNeeded(sd, effect, TWO)!;
    let hits = 0;
    const sims = 2000;
    for (let k = 0; k < sims; k++) {
      const x = Array.from({ length: n }, () => 0);
      const y = Array.from({ length: n }, () => effect + sd * draw());
      if (pairedTTest(x, y)!.p <= 0.05) hits++;
    }
    // 2000 draws: the standard error of a rate of 0.8 is 0.009
    expect(hits / sims).toBeGreaterThan(0.77);
    expect(hits / sims).toBeLessThan(0.84);
  });

  it('resampling normal values agrees with the t quantiles', () => {
    const draw = normals(11);
    const values = Array.from({ length: 40 }, () => draw());
    const s = { ...TWO, seed: 3, sims: 2000 };
    const viaT = tDetectableEffect(40, 1, TWO)!;
    const sd = Math.sqrt(
      values.reduce((a, v, _, all) => a + (v - all.reduce((p, q) => p + q) / 40) ** 2, 0) / 39,
    );
    const resampled = resampledDetectableEffect(values, s)!;
    expect(resampled / (viaT * sd)).toBeGreaterThan(0.85);
    expect(resampled / (viaT * sd)).toBeLessThan(1.15);
    expect(resampledPower(values, 40, resampled, s)).toBeGreaterThanOrEqual(0.8);
    expect(resampledDetectableEffect([1, 1, 1], s)).toBeNull();
  });
});
