/**
 * Seeded percentile bootstrap (Efron & Tibshirani 1993, ch. 13): resample the units with replacement,
 * take the mean of each resample, and read the 2.5th and 97.5th percentiles (linear interpolation,
 * Hyndman & Fan type 7). The paired form resamples the per-query differences y - x.
 */
import { STATS_DEFAULTS } from '../core/defaults.js';
import { prngState } from '../core/prng.js';

export interface BootstrapOptions {
  seed: number;
  resamples?: number;
  /** confidence level, default 0.95 */
  level?: number;
}

function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/**
 * One resample's sum, advancing the generator state in `state` (int32 words). A small function called
 * once per resample is optimised by V8 within the first interval; one long loop waited for on-stack
 * replacement and ran ~5x slower for the first calls.
 */
function resampleSum(v: Float64Array, scale: number, state: Int32Array): number {
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  const n = v.length;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    s += v[((t >>> 0) * scale) | 0] as number;
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
  return s;
}

/**
 * Opt-in diagnostics (`RGATE_STAGE_TIMINGS`, read only by the CLI): the time bootstrapMeanCi spends,
 * summed. It only reads the clock it is given around the computation, so the intervals are the same
 * bytes with or without it, and the sum goes to the caller's timings file, never into a report.
 */
let clock: (() => number) | undefined;
let spentMs = 0;
let calls = 0;

/** Start summing bootstrap time with `now` (ms), from zero; `undefined` stops. */
export function timeBootstraps(now: (() => number) | undefined): void {
  clock = now;
  spentMs = 0;
  calls = 0;
}

/** The bootstrap time summed since timeBootstraps(now), and how many intervals it covers. */
export function bootstrapTime(): { ms: number; intervals: number } {
  return { ms: spentMs, intervals: calls };
}

/** Percentile interval of the mean of `values`; null when there are none. */
export function bootstrapMeanCi(values: readonly number[], o: BootstrapOptions): [number, number] | null {
  if (clock === undefined) return meanCi(values, o);
  const t0 = clock();
  const ci = meanCi(values, o);
  spentMs += clock() - t0;
  calls++;
  return ci;
}

function meanCi(values: readonly number[], o: BootstrapOptions): [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  const resamples = o.resamples ?? STATS_DEFAULTS.resamples;
  const alpha = 1 - (o.level ?? 0.95);
  const v = Float64Array.from(values);
  // createPrng(seed).int(n), stepped inline: this loop is most of a large run's measuring time. The
  // state words are kept as int32 (| 0) so V8 keeps them in registers; the bits are sfc32's, only the
  // sign of the representation differs. t / 2^32 is exact, so t * (n / 2^32) rounds the same real
  // number once, as (t / 2^32) * n does; the index is below n < 2^31, so | 0 floors it. The draws and
  // sums are the closure loop's, double for double (src/stats/bootstrap.test.ts).
  const state = Int32Array.from(prngState(o.seed));
  const scale = n / 4294967296;
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) means[r] = resampleSum(v, scale, state) / n;
  means.sort();
  return [quantileSorted(means, alpha / 2), quantileSorted(means, 1 - alpha / 2)];
}

/** Percentile interval of mean(y - x) over paired units (e.g. per-query scores of two systems). */
export function pairedBootstrapMeanCi(
  x: readonly number[],
  y: readonly number[],
  o: BootstrapOptions,
): [number, number] | null {
  if (x.length !== y.length) throw new RangeError(`paired bootstrap: ${x.length} vs ${y.length} values`);
  return bootstrapMeanCi(
    x.map((v, i) => (y[i] as number) - v),
    o,
  );
}
