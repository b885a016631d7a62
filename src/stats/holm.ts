/**
 * Holm's step-down correction for m simultaneous tests (Holm 1979, Scand. J. Statist. 6:65-70):
 * sort p ascending; the k-th smallest (k = 1..m) is adjusted to max over j <= k of min(1, (m - j + 1) p_(j)).
 * A hypothesis is rejected at level alpha when its adjusted p <= alpha. Controls the family-wise error.
 */
export function holmAdjust(ps: readonly number[]): number[] {
  const m = ps.length;
  // a NaN sorts nowhere and would spread through the running maximum to every later test
  const bad = ps.findIndex((p) => !(p >= 0 && p <= 1));
  if (bad >= 0) throw new RangeError(`Holm: p-value ${bad} is ${ps[bad]}, not a probability`);
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const out = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}

/** Which hypotheses Holm's procedure rejects at level alpha (input order). */
export function holmReject(ps: readonly number[], alpha = 0.05): boolean[] {
  return holmAdjust(ps).map((p) => p <= alpha);
}
