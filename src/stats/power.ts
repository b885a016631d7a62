/**
 * Power and sample size: the smallest effect a test detects at n units, and the n a given effect
 * needs, at a stated power and alpha. Rates use the exact binomial test (the power read from the
 * binomial distribution itself, no normal approximation); means use the t test's quantiles,
 * effect = (t_{1-alpha/s, n-1} + t_{power, n-1}) * sd / sqrt(n), the usual approximation of the
 * noncentral t that gives G*Power's paired-t sizes (d 0.5 -> 34, 0.8 -> 15, 0.2 -> 199); and where
 * few units make that approximation poor, a seeded resampling of the observed values (power.test.ts
 * checks each against closed forms and a simulation).
 */
import { createPrng } from '../core/prng.js';
import { regularizedBeta, studentTwoSidedP } from './t-test.js';

export interface PowerSettings {
  /** the test's level, e.g. 0.05 */
  alpha: number;
  /** the probability of detecting the effect, e.g. 0.8 */
  power: number;
  /** 1: a one-sided test (a drop, or a rise); 2: two-sided */
  sided: 1 | 2;
}

/** The largest n rgate plans for: beyond it, "more than" is the answer. */
export const MAX_PLANNED_N = 1_000_000;

/**
 * The standard normal quantile, Acklam's rational approximation (relative error under 1.2e-9),
 * ample for power figures printed to a few digits. Example: normalQuantile(0.975) ≈ 1.959964.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p ${p} not in (0, 1)`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** Student's t quantile: the t with P(T_df <= t) = p, by bisection on the tail (df > 0). */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentQuantile: p ${p} not in (0, 1)`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentQuantile(1 - p, df);
  const tail = 2 * (1 - p);
  let hi = 1;
  while (studentTwoSidedP(hi, df) > tail) hi *= 2;
  let lo = 0;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTwoSidedP(mid, df) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** P(X <= k) for X ~ Binomial(n, p), from the incomplete beta: I_{1-p}(n - k, k + 1). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  return regularizedBeta(1 - p, n - k, k + 1);
}

/**
 * The exact one-sided binomial test of H0 rate = p0 against a drop: it rejects at X <= critical,
 * the largest count whose probability under p0 is at most alpha; -1 when no count is that rare (n
 * too small for any drop to be seen at this alpha).
 */
export function binomialCritical(n: number, p0: number, alpha: number): number {
  if (binomialCdf(0, n, p0) > alpha) return -1;
  let lo = 0;
  let hi = n;
  // the cdf rises with k: the largest k with cdf <= alpha
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (binomialCdf(mid, n, p0) <= alpha) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The exact test's power to see a drop from p0 to p1 at n: P(X <= critical | p1). */
export function binomialDropPower(n: number, p0: number, p1: number, alpha: number): number {
  const c = binomialCritical(n, p0, alpha);
  return c < 0 ? 0 : binomialCdf(c, n, p1);
}

/**
 * The smallest drop from p0 that the exact one-sided binomial test at n detects with the given
 * power (p0 - p1 for the largest such p1); null when no drop can be seen (n too small for alpha).
 * A rise is the same question on the complement: binomialDetectableDrop(n, 1 - p0, ...).
 */
export function binomialDetectableDrop(n: number, p0: number, alpha: number, power: number): number | null {
  if (n <= 0) return null;
  const c = binomialCritical(n, p0, alpha);
  if (c < 0) return null;
  // P(X <= c | p1) falls as p1 rises: the largest p1 whose power still reaches the target
  let lo = 0;
  let hi = p0;
  if (binomialCdf(c, n, 0) < power) return null;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(c, n, mid) >= power) lo = mid;
    else hi = mid;
  }
  return p0 - lo;
}

/**
 * The fewest units at which the exact one-sided test detects a drop from p0 to p0 - effect with
 * the given power. The exact test's power saws up and down with n (the critical count moves in
 * steps), so this is the first n that reaches it; null beyond MAX_PLANNED_N.
 */
export function binomialUnitsNeeded(p0: number, effect: number, alpha: number, power: number): number | null {
  const p1 = p0 - effect;
  if (!(effect > 0) || p1 < 0) throw new RangeError(`binomial plan: a drop of ${effect} from ${p0}`);
  // start the scan well below the normal approximation's answer: the exact one is never that far off
  const za = normalQuantile(1 - alpha);
  const zb = normalQuantile(power);
  const approx = ((za * Math.sqrt(p0 * (1 - p0)) + zb * Math.sqrt(p1 * (1 - p1))) / effect) ** 2;
  for (let n = Math.max(1, Math.floor(approx * 0.5) - 10); n <= MAX_PLANNED_N; n++) {
    if (binomialDropPower(n, p0, p1, alpha) >= power) return n;
  }
  return null;
}

/** The t quantile sum behind a mean's detectable effect at n units. */
function tMultiplier(n: number, s: PowerSettings): number {
  const df = n - 1;
  return studentQuantile(1 - s.alpha / s.sided, df) + studentQuantile(s.power, df);
}

/**
 * The smallest mean shift a one-sample (or paired) t test over n units with standard deviation sd
 * detects: (t_{1-alpha/s} + t_{power}) * sd / sqrt(n); null below 2 units (no variance to test).
 */
export function tDetectableEffect(n: number, sd: number, s: PowerSettings): number | null {
  if (n < 2 || !Number.isFinite(sd)) return null;
  return (tMultiplier(n, s) * sd) / Math.sqrt(n);
}

/** The fewest units whose t test detects `effect` at sd (the smallest n with tDetectableEffect <= effect). */
export function tUnitsNeeded(sd: number, effect: number, s: PowerSettings): number | null {
  if (!(effect > 0)) throw new RangeError(`t plan: effect ${effect} must be positive`);
  if (sd === 0) return 2;
  const fits = (n: number) => tDetectableEffect(n, sd, s)! <= effect;
  if (!fits(MAX_PLANNED_N)) return null;
  let lo = 2;
  let hi = MAX_PLANNED_N;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Mean and n - 1 standard deviation. */
export function meanSd(values: readonly number[]): { mean: number; sd: number } {
  const n = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = n ? sum / n : 0;
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return { mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0 };
}

export interface ResampleSettings extends PowerSettings {
  seed: number;
  /** simulated samples per effect tried */
  sims: number;
}

/**
 * The power of the t test at n units when the observed values, centred and shifted by `effect`, are
 * the population: each simulated sample draws n of them with replacement (the seeded PRNG, the same
 * draws for every effect, so power rises with the effect without Monte Carlo wobble).
 */
export function resampledPower(
  values: readonly number[],
  n: number,
  effect: number,
  s: ResampleSettings,
): number {
  const { mean } = meanSd(values);
  const centred = values.map((v) => v - mean);
  const prng = createPrng(s.seed);
  let hits = 0;
  const sample = new Float64Array(n);
  for (let k = 0; k < s.sims; k++) {
    for (let i = 0; i < n; i++) sample[i] = centred[prng.int(centred.length)]! + effect;
    if (rejects(sample, s)) hits++;
  }
  return hits / s.sims;
}

/** One-sample t test of mean 0 against a positive shift (one-sided) or either (two-sided). */
function rejects(sample: Float64Array, s: PowerSettings): boolean {
  const n = sample.length;
  let sum = 0;
  for (const v of sample) sum += v;
  const m = sum / n;
  let ss = 0;
  for (const v of sample) ss += (v - m) * (v - m);
  const sd = Math.sqrt(ss / (n - 1));
  if (sd === 0) return m > 0 || (s.sided === 2 && m < 0);
  const t = m / (sd / Math.sqrt(n));
  const two = studentTwoSidedP(t, n - 1);
  return s.sided === 2 ? two <= s.alpha : t > 0 && two / 2 <= s.alpha;
}

/**
 * The smallest shift the t test detects at the values' own n, read from resampledPower by bisection:
 * for skewed or bounded per-query values at few queries, where the t quantiles' normal shape is poor.
 * null below 2 values or when the values do not vary.
 */
export function resampledDetectableEffect(values: readonly number[], s: ResampleSettings): number | null {
  const n = values.length;
  const { sd } = meanSd(values);
  if (n < 2 || sd === 0) return null;
  let lo = 0;
  let hi = Math.max(1e-9, 4 * tDetectableEffect(n, sd, s)!);
  while (resampledPower(values, n, hi, s) < s.power) hi *= 2;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (resampledPower(values, n, mid, s) >= s.power) hi = mid;
    else lo = mid;
  }
  return hi;
}
