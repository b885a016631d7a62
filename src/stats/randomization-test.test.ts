import { describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { gridExactP, pairedRandomizationP, pairedRandomizationTest } from './randomization-test.js';

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
    // differences on no grid 1/K (K <= 1000), so the p-value is estimated
    const x = Array.from({ length: 40 }, (_, i) => (i % 7) / 10);
    const y = x.map((v, i) => v + 0.05 + (i % 3) * Math.SQRT2 * 1e-3);
    const a = pairedRandomizationTest(x, y, { seed: 11, permutations: 2000 });
    expect(a.exact).toBe(false);
    expect(a.p).toBe(1 / 2001); // every difference positive: no assignment is as extreme except identity
    expect(pairedRandomizationTest(x, y, { seed: 11, permutations: 2000 })).toEqual(a);
    const noise = x.map((v, i) => v + (i % 2 ? 1 : -1) * Math.SQRT2 * 1e-3);
    const b = pairedRandomizationTest(x, noise, { seed: 11, permutations: 2000 });
    expect(b.p).toBeGreaterThan(0.5);
  });

  it('refuses unpaired inputs, and values that are not finite numbers (a NaN would give p = 0)', () => {
    expect(() => pairedRandomizationTest([1], [1, 2], { seed: 1 })).toThrow(RangeError);
    expect(() => pairedRandomizationTest([NaN, 1, 0], [0, 1, 1], { seed: 1 })).toThrow(/pair 0/);
    expect(() => pairedRandomizationTest([0, 1], [Infinity, 1], { seed: 1 })).toThrow(/pair 0/);
  });

  it('past 16 queries, differences on a grid 1/K get the exact p: a rate is a binomial tail', () => {
    // 15 queries better, 5 worse, 10 tied (a 0/1 rate): |sum| >= 10 among 20 fair signs
    const y = [...Array<number>(15).fill(1), ...Array<number>(5).fill(0), ...Array<number>(10).fill(1)];
    const x = [...Array<number>(15).fill(0), ...Array<number>(5).fill(1), ...Array<number>(10).fill(1)];
    const r = pairedRandomizationTest(x, y, { seed: 1, permutations: 100 });
    const tail = [15, 16, 17, 18, 19, 20].reduce((a, k) => a + choose(20, k), 0);
    expect(r.exact).toBe(true);
    expect(r.p).toBe((2 * tail) / 2 ** 20);
    // no floor at 1/(R+1): every query better gives 2 / 2^30
    const all = pairedRandomizationTest(Array<number>(30).fill(0), Array<number>(30).fill(1), { seed: 1 });
    expect(all).toMatchObject({ p: 2 / 2 ** 30, exact: true });
  });

  it('the grid count equals enumerating every sign assignment (P@10-like tenths, decimals as doubles)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = createPrng(seed);
      const n = 6 + (seed % 9);
      const x = Array.from({ length: n }, () => rng.int(11) / 10);
      const y = Array.from({ length: n }, () => rng.int(11) / 10);
      const enumerated = pairedRandomizationTest(x, y, { seed }); // n <= 16: every assignment
      const d = x.map((v, i) => y[i]! - v);
      if (d.every((v) => v === 0)) continue;
      expect(enumerated.exact).toBe(true);
      expect(gridExactP(d)).toBeCloseTo(enumerated.p, 12);
    }
    expect(gridExactP([Math.SQRT2, 1, 0.5])).toBeNull();
  });
});

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
