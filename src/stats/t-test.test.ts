import { describe, expect, it } from 'vitest';
import { logGamma, pairedTTest, regularizedBeta, studentTwoSidedP } from './t-test.js';

/** Closed forms of the two-sided tail for small df (Abramowitz & Stegun 26.7.3-4). */
const closed: Record<number, (t: number) => number> = {
  1: (t) => 1 - (2 / Math.PI) * Math.atan(Math.abs(t)),
  2: (t) => 1 - Math.abs(t) / Math.sqrt(2 + t * t),
  3: (t) => {
    const u = Math.abs(t) / Math.sqrt(3);
    return 1 - (2 / Math.PI) * (Math.atan(u) + u / (1 + u * u));
  },
};

describe("Student's t tail", () => {
  it('equals the closed forms for df 1, 2 and 3', () => {
    for (const df of [1, 2, 3]) {
      for (const t of [0.01, 0.5, 1, 1.7, 2.5, 4, 10, 60]) {
        const want = closed[df]!(t);
        expect(Math.abs(studentTwoSidedP(t, df) - want) / want, `df ${df}, t ${t}`).toBeLessThan(1e-12);
        expect(studentTwoSidedP(-t, df)).toBe(studentTwoSidedP(t, df));
      }
    }
  });

  it('tends to the normal tail, and gives the textbook critical values', () => {
    expect(studentTwoSidedP(1.959963984540054, 1e6)).toBeCloseTo(0.05, 6);
    expect(studentTwoSidedP(2.2281388519649385, 10)).toBeCloseTo(0.05, 10);
    expect(studentTwoSidedP(2.0085591121007607, 50)).toBeCloseTo(0.05, 10);
    expect(studentTwoSidedP(0, 5)).toBe(1);
    // a tiny t: 1 - 7.94e-9 (the density at 0 times 2t), not 1 (df / (df + t^2) rounds to 1)
    expect(1 - studentTwoSidedP(1e-8, 51)).toBeCloseTo(7.9398318e-9, 14);
    expect(studentTwoSidedP(1e-8, 51)).toBeLessThan(1);
    expect(studentTwoSidedP(Infinity, 5)).toBe(0);
    expect(() => studentTwoSidedP(1, 0)).toThrow(/df 0/);
  });

  it('builds on a log-gamma and an incomplete beta that are right where they are known', () => {
    expect(logGamma(1)).toBeCloseTo(0, 14);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 14);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    // I_x(1, 1) = x; I_x(a, 1) = x^a
    expect(regularizedBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedBeta(0.6, 3, 1)).toBeCloseTo(0.216, 14);
    expect(regularizedBeta(0, 2, 3)).toBe(0);
    expect(regularizedBeta(1, 2, 3)).toBe(1);
  });
});

describe('paired t-test', () => {
  it('computes t on the differences with the n-1 standard deviation', () => {
    const x = [0.2, 0.4, 0.1, 0.5, 0.3];
    const y = [0.3, 0.45, 0.3, 0.5, 0.5];
    // d = 0.1, 0.05, 0.2, 0, 0.2: mean 0.11, sd 0.0894427..., t = 0.11 / (sd / sqrt 5) = 2.75
    const r = pairedTTest(x, y)!;
    expect(r.df).toBe(4);
    expect(r.t).toBeCloseTo(2.75, 12);
    expect(r.observed).toBeCloseTo(0.11, 15);
    expect(r.p).toBeCloseTo(studentTwoSidedP(2.75, 4), 15);
  });

  it('says 1 for all ties, 0 for a constant shift, nothing for one pair, and refuses NaN', () => {
    expect(pairedTTest([1, 2], [1, 2])!.p).toBe(1);
    expect(pairedTTest([0.1, 0.2, 0.3], [0.2, 0.3, 0.4])).toMatchObject({ p: 0, t: Infinity });
    expect(pairedTTest([0.1], [0.4])).toBeNull();
    expect(pairedTTest([], [])!.p).toBe(1);
    expect(() => pairedTTest([0, NaN], [1, 1])).toThrow(/pair 1/);
  });
});
