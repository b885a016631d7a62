import { describe, expect, it } from 'vitest';
import { pairedRandomizationP, pairedRandomizationTest } from './randomization-test.js';

describe('paired randomization test (Smucker, Allan & Carterette, CIKM 2007)', () => {
  it('exact on a case enumerable by hand', () => {
    // d = y - x = (1, 2, 3): the 8 sign assignments give sums 6, 4, 2, 0, 0, -2, -4, -6;
    // |sum| >= 6 in 2 of 8, so the exact two-sided p is 0.25
    const r = pairedRandomizationTest([0, 0, 0], [1, 2, 3], { seed: 1 });
    expect(r).toEqual({ p: 0.25, observed: 2, exact: true, permutations: 8 });
    // d = (1, -1, 2, 2): observed sum 4; sums >= 4 in absolute value: (+,+,+,+)=4, (-,-,+,+)... enumerate:
    // |±1 ∓1 ±2 ±2|: the 16 assignments give |sum| in {0,2,4,6}; 6 occurs twice, 4 occurs four times
    const r2 = pairedRandomizationTest([0, 0, 0, 0], [1, -1, 2, 2], { seed: 1 });
    expect(r2.p).toBe(6 / 16);
  });

  it('identical systems give p = 1', () => {
    expect(pairedRandomizationP([0.2, 0.5], [0.2, 0.5], { seed: 3 })).toBe(1);
  });

  it('sampled (n > 16) is seeded, uses the +1 correction, and agrees with a clear effect', () => {
    const x = Array.from({ length: 40 }, (_, i) => (i % 7) / 10);
    const y = x.map((v, i) => v + 0.05 + (i % 3) / 100);
    const a = pairedRandomizationTest(x, y, { seed: 11, permutations: 2000 });
    expect(a.exact).toBe(false);
    expect(a.p).toBe(1 / 2001); // every difference positive: no assignment is as extreme except identity
    expect(pairedRandomizationTest(x, y, { seed: 11, permutations: 2000 })).toEqual(a);
    const noise = x.map((v, i) => v + (i % 2 ? 0.01 : -0.01));
    const b = pairedRandomizationTest(x, noise, { seed: 11, permutations: 2000 });
    expect(b.p).toBeGreaterThan(0.5);
  });

  it('refuses unpaired inputs', () => {
    expect(() => pairedRandomizationTest([1], [1, 2], { seed: 1 })).toThrow(RangeError);
  });
});
