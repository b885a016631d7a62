/**
 * Paired two-sided randomization (permutation) test of mean(y - x) = 0, as used for IR significance
 * testing by Smucker, Allan & Carterette (CIKM 2007): under the null each per-query difference is
 * equally likely to have either sign. The p-value is exact whenever it can be had cheaply: with at
 * most EXACT_MAX_N non-zero differences every sign assignment is enumerated; with more, when every difference
 * is a whole multiple of 1/K for a small K (a rate's 0/1 per query gives K = 1, P@10 gives K = 10),
 * the distribution of the signed sum is counted exactly on that grid (`gridExactP`). Otherwise
 * `permutations` seeded random assignments estimate it, with the +1 correction (Phipson & Smyth 2010)
 * so p is never 0 and never below 1/(permutations + 1): a floor that Holm multiplies by the number of
 * tests (history/compare-stats.ts says when that floor keeps every test from alpha).
 */
import { createPrng } from '../core/prng.js';
import { STATS_DEFAULTS } from '../core/defaults.js';

export const EXACT_MAX_N = 16;
/** the largest grid 1/K tried, and the most signed-sum states counted, for an exact p past EXACT_MAX_N */
export const GRID_MAX_K = 1000;
const GRID_MAX_WORK = 50_000_000;

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
  // a NaN would make every comparison false and the p-value 0: callers leave such queries out
  const bad = d.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new RangeError(`randomization test: pair ${bad} is not two finite numbers`);
  const n = d.length;
  if (n === 0) return { p: 1, observed: 0, exact: true, permutations: 1 };
  const observedSum = d.reduce((a, b) => a + b, 0);
  const target = Math.abs(observedSum) - EPS * Math.max(1, Math.abs(observedSum));
  // a zero difference is the same under either sign: only the others need enumerating (the ratio
  // extreme / 2^k is the same as over all 2^n assignments)
  const moved = d.filter((v) => v !== 0);
  if (moved.length <= EXACT_MAX_N) {
    let extreme = 0;
    const total = 1 << moved.length;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < moved.length; i++)
        s += mask & (1 << i) ? -(moved[i] as number) : (moved[i] as number);
      if (Math.abs(s) >= target) extreme++;
    }
    return { p: extreme / total, observed: observedSum / n, exact: true, permutations: 2 ** n };
  }
  const grid = gridExactP(d);
  if (grid !== null) return { p: grid, observed: observedSum / n, exact: true, permutations: 2 ** n };
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

/**
 * The exact two-sided p when every |d_i| is a whole multiple of 1/K for some K <= GRID_MAX_K (within
 * 1e-9 of one: differences of decimals carry binary rounding), else null. The signed sum's
 * distribution over all 2^n assignments is built one query at a time on the integer grid
 * (probabilities, each step halving: exact in binary for n <= 53, within one rounding per step past
 * it); p = P(|sum| >= |observed sum|), compared as integers.
 */
export function gridExactP(d: readonly number[]): number | null {
  let k = 0;
  let steps: number[] = [];
  for (let K = 1; K <= GRID_MAX_K && k === 0; K++) {
    const s: number[] = [];
    for (const v of d) {
      const scaled = Math.abs(v) * K;
      const whole = Math.round(scaled);
      if (Math.abs(scaled - whole) > 1e-9 * Math.max(1, scaled)) break;
      s.push(whole);
    }
    if (s.length === d.length) {
      k = K;
      steps = s;
    }
  }
  if (k === 0) return null;
  let total = 0;
  for (const a of steps) total += a;
  if (total === 0) return 1;
  if (total * d.length > GRID_MAX_WORK) return null;
  let observed = 0;
  d.forEach((v, i) => (observed += v < 0 ? -steps[i]! : steps[i]!));
  // dist[j] = P(sum = j - total); only a_i > 0 move the sum (a zero difference has one value either way)
  let dist = new Float64Array(2 * total + 1);
  let next = new Float64Array(2 * total + 1);
  dist[total] = 1;
  let reach = 0;
  for (const a of steps) {
    if (a === 0) continue;
    next.fill(0);
    for (let j = total - reach; j <= total + reach; j++) {
      const q = dist[j]!;
      if (q === 0) continue;
      next[j - a] = next[j - a]! + q / 2;
      next[j + a] = next[j + a]! + q / 2;
    }
    [dist, next] = [next, dist];
    reach += a;
  }
  const bound = Math.abs(observed);
  let p = 0;
  for (let j = 0; j < dist.length; j++) if (Math.abs(j - total) >= bound) p += dist[j]!;
  return Math.min(1, p);
}

/** Just the p-value (the shape the comparison code calls). */
export function pairedRandomizationP(
  x: readonly number[],
  y: readonly number[],
  o: { seed: number; permutations?: number },
): number {
  return pairedRandomizationTest(x, y, o).p;
}
