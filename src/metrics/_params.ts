import { RgateError } from '../core/errors.js';

/**
 * Cutoff lists as trec_eval reads them (`-m P.5,10,15`): each entry is read with C's atol (so "23.4"
 * is 23), sorted ascending; zero, negative or duplicate cutoffs are refused.
 */
export function parseCutoffs(measure: string, text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const out: number[] = [];
  for (const p of parts) {
    const m = /^[+-]?\d+/.exec(p);
    const v = m ? Number(m[0]) : NaN;
    if (!Number.isSafeInteger(v) || v <= 0) {
      throw new RgateError(
        'usage',
        `-m ${measure}.${text}: cutoff "${p}" is not a positive integer`,
        `write cutoffs as a comma list, e.g. -m ${measure}.5,10,20`,
      );
    }
    out.push(v);
  }
  out.sort((a, b) => a - b);
  for (let i = 1; i < out.length; i++) {
    if (out[i] === out[i - 1]) {
      throw new RgateError('usage', `-m ${measure}.${text}: cutoff ${out[i]} is listed twice`);
    }
  }
  return out;
}

export const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

/** Names like P_5, P_10 (trec_eval's append_long). */
export function cutoffNames(id: string, cutoffs: readonly number[]): string[] {
  return cutoffs.map((c) => `${id}_${c}`);
}
