/**
 * Paired two-sided randomization (permutation) test of mean(y - x) = 0, as used for IR significance
 * testing by Smucker, Allan & Carterette (CIKM 2007): under the null each per-query difference is
 * equally likely to have either sign. With n <= EXACT_MAX_N all 2^n sign assignments are enumerated
 * (exact p); otherwise `permutations` seeded random assignments estimate it, with the +1 correction
 * (Phipson & Smyth 2010) so p is never 0.
 */
import { createPrng } from '../core/prng.js';
import { STATS_DEFAULTS } from '../core/defaults.js';

export const EXACT_MAX_N = 16;

export interface RandomizationResult {
  p: number;
  /** mean of y - x */
  observed: number;
  exact: boolean;
  /** assignments evaluated (2^n when exact) */
  permutations: number;
}

// sums equal up to rounding must count as "as extreme": differences of sums in another order
const EPS = 1e-12;

export function pairedRandomizationTest(
  x: readonly number[],
  y: readonly number[],
  o: { seed: number; permutations?: number },
): RandomizationResult {
  if (x.length !== y.length) throw new RangeError(`randomization test: ${x.length} vs ${y.length} values`);
  const d = x.map((v, i) => (y[i] as number) - v);
  const n = d.length;
  if (n === 0) return { p: 1, observed: 0, exact: true, permutations: 1 };
  const observedSum = d.reduce((a, b) => a + b, 0);
  const target = Math.abs(observedSum) - EPS * Math.max(1, Math.abs(observedSum));
  if (n <= EXACT_MAX_N) {
    let extreme = 0;
    const total = 1 << n;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += mask & (1 << i) ? -(d[i] as number) : (d[i] as number);
      if (Math.abs(s) >= target) extreme++;
    }
    return { p: extreme / total, observed: observedSum / n, exact: true, permutations: total };
  }
  const perms = o.permutations ?? STATS_DEFAULTS.permutations;
  const prng = createPrng(o.seed);
  let extreme = 0;
  for (let r = 0; r < perms; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += prng.next() < 0.5 ? -(d[i] as number) : (d[i] as number);
    if (Math.abs(s) >= target) extreme++;
  }
  return { p: (extreme + 1) / (perms + 1), observed: observedSum / n, exact: false, permutations: perms };
}

/** Just the p-value (the shape the comparison code calls). */
export function pairedRandomizationP(
  x: readonly number[],
  y: readonly number[],
  o: { seed: number; permutations?: number },
): number {
  return pairedRandomizationTest(x, y, o).p;
}
