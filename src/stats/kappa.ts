/**
 * Cohen's kappa between two graders over the items both graded (Cohen 1960), and its weighted form
 * for ordered grades (Cohen 1968): kappa_w = 1 - sum(w_ij o_ij) / sum(w_ij e_ij), with disagreement
 * weights w_ij = |i - j| / (k - 1) (linear) over the k levels either grader used, o the observed and
 * e the chance proportions (the product of the margins). With 0/1 weights it is the unweighted kappa.
 */
import { createPrng } from '../core/prng.js';

export type KappaWeights = 'none' | 'linear';

/** kappa over paired grades (a[i] and b[i] grade the same item); null when chance agreement is total. */
export function cohenKappa(
  a: readonly number[],
  b: readonly number[],
  weights: KappaWeights = 'none',
): number | null {
  if (a.length !== b.length) throw new RangeError(`kappa: ${a.length} vs ${b.length} grades`);
  const n = a.length;
  if (n === 0) return null;
  const levels = [...new Set([...a, ...b])].sort((x, y) => x - y);
  const k = levels.length;
  if (k < 2) return null;
  const at = new Map(levels.map((l, i) => [l, i]));
  const w = (i: number, j: number) => (weights === 'none' ? (i === j ? 0 : 1) : Math.abs(i - j) / (k - 1));
  const obs = Array.from({ length: k }, () => new Float64Array(k));
  const ra = new Float64Array(k);
  const rb = new Float64Array(k);
  for (let t = 0; t < n; t++) {
    const i = at.get(a[t]!)!;
    const j = at.get(b[t]!)!;
    obs[i]![j]! += 1 / n;
    ra[i]! += 1 / n;
    rb[j]! += 1 / n;
  }
  let o = 0;
  let e = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      o += w(i, j) * obs[i]![j]!;
      e += w(i, j) * ra[i]! * rb[j]!;
    }
  return e === 0 ? null : 1 - o / e;
}

/**
 * A percentile bootstrap 95% interval of kappa: items resampled with the seeded PRNG; resamples where
 * kappa is undefined (one level only) are left out. null when fewer than half of them define it.
 */
export function kappaInterval(
  a: readonly number[],
  b: readonly number[],
  weights: KappaWeights,
  { seed, resamples }: { seed: number; resamples: number },
): [number, number] | null {
  const n = a.length;
  if (n < 2) return null;
  const prng = createPrng(seed);
  const values: number[] = [];
  const xa = new Array<number>(n);
  const xb = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const t = prng.int(n);
      xa[i] = a[t]!;
      xb[i] = b[t]!;
    }
    const kv = cohenKappa(xa, xb, weights);
    if (kv !== null) values.push(kv);
  }
  if (values.length < resamples / 2) return null;
  values.sort((x, y) => x - y);
  const q = (p: number) => values[Math.min(values.length - 1, Math.max(0, Math.floor(p * values.length)))]!;
  return [q(0.025), q(0.975)];
}
