import { describe, expect, it } from 'vitest';
import { cohenKappa, kappaInterval } from './kappa.js';

/** Items from a contingency table: [grade a, grade b, count]. */
function items(table: [number, number, number][]): { a: number[]; b: number[] } {
  const a: number[] = [];
  const b: number[] = [];
  for (const [x, y, c] of table) {
    a.push(...Array<number>(c).fill(x));
    b.push(...Array<number>(c).fill(y));
  }
  return { a, b };
}

describe("Cohen's kappa", () => {
  it('gives the textbook 2x2 value: 20/5/10/15 of 50 -> po 0.7, pe 0.5, kappa 0.4', () => {
    const { a, b } = items([
      [1, 1, 20],
      [1, 0, 5],
      [0, 1, 10],
      [0, 0, 15],
    ]);
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 12);
    // two levels: linear weights are the unweighted kappa
    expect(cohenKappa(a, b, 'linear')).toBeCloseTo(0.4, 12);
  });

  it('weights a near miss less than a far one on ordered grades', () => {
    // 3 levels, 10 items: agreement on 6, four one-level misses
    const near = items([
      [0, 0, 2],
      [1, 1, 2],
      [2, 2, 2],
      [0, 1, 1],
      [1, 0, 1],
      [1, 2, 1],
      [2, 1, 1],
    ]);
    // margins are 0.3/0.4/0.3 for both: pe = 0.34, po = 0.6 -> kappa = 0.26 / 0.66
    expect(cohenKappa(near.a, near.b)).toBeCloseTo(0.26 / 0.66, 12);
    // linear: observed disagreement 4 * 0.5 / 10 = 0.2; expected sum w_ij r_i c_j = 0.5*(2*.3*.4*2) + 1*(2*.3*.3) = 0.24 + 0.18 = 0.42
    expect(cohenKappa(near.a, near.b, 'linear')).toBeCloseTo(1 - 0.2 / 0.42, 12);
    expect(cohenKappa(near.a, near.b, 'linear')!).toBeGreaterThan(cohenKappa(near.a, near.b)!);
    expect(cohenKappa([1, 1], [1, 1])).toBeNull();
    expect(cohenKappa([0, 1, 0, 1], [0, 1, 0, 1])).toBe(1);
  });

  it('has a seeded bootstrap interval around it', () => {
    const { a, b } = items([
      [1, 1, 20],
      [1, 0, 5],
      [0, 1, 10],
      [0, 0, 15],
    ]);
    const ci = kappaInterval(a, b, 'none', { seed: 1, resamples: 1000 })!;
    expect(ci[0]).toBeLessThan(0.4);
    expect(ci[1]).toBeGreaterThan(0.4);
    // the asymptotic standard error here is about 0.13: the interval is about +-0.25 wide
    expect(ci[1] - ci[0]).toBeGreaterThan(0.35);
    expect(ci[1] - ci[0]).toBeLessThan(0.7);
    expect(kappaInterval(a, b, 'none', { seed: 1, resamples: 1000 })).toEqual(ci);
  });
});
