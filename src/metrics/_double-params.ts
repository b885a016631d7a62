import { RgateError } from '../core/errors.js';
import { cFixed } from './_format.js';

/** A decimal number as C's atof reads a whole parameter (".25", "5.0", "1e-1"); junk is refused. */
function readDouble(measure: string, text: string, part: string): number {
  const p = part.trim();
  const v = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(p) ? Number(p) : NaN;
  if (!Number.isFinite(v)) {
    throw new RgateError(
      'usage',
      `-m ${measure}.${text}: "${part}" is not a number`,
      `write the parameters as a comma list of decimals, e.g. -m ${measure}.0.2,0.5,0.8`,
    );
  }
  return v;
}

/**
 * Fractional cutoffs as trec_eval reads them (meas_init.c get_double_cutoffs, `-m
 * iprec_at_recall..10,.5`): each read as a decimal, sorted ascending, duplicates refused.
 */
export function parseDoubleCutoffs(measure: string, text: string): number[] {
  const out = text.split(',').map((p) => readDouble(measure, text, p));
  out.sort((a, b) => a - b);
  for (let i = 1; i < out.length; i++) {
    if (out[i] === out[i - 1]) {
      throw new RgateError('usage', `-m ${measure}.${text}: cutoff ${out[i]} is listed twice`);
    }
  }
  return out;
}

/** Parameters that name a single value (get_double_params): kept in the order given, and the text. */
export interface DoubleParams {
  values: number[];
  /** the text as given, printed in the name (`11pt_avg_.25,.5,.75`); null for the defaults */
  text: string | null;
}

export function parseDoubleParams(measure: string, text: string): DoubleParams {
  return { values: text.split(',').map((p) => readDouble(measure, text, p)), text };
}

/** `set_F` for the defaults, `set_F_0.5` when parameters were given (trec_eval's append_string). */
export function paramName(id: string, p: DoubleParams): string {
  return p.text === null ? id : `${id}_${p.text}`;
}

/** Names like iprec_at_recall_0.10 (trec_eval's append_double, "%s_%3.2f"). */
export function doubleCutoffNames(id: string, cutoffs: readonly number[]): string[] {
  return cutoffs.map((c) => `${id}_${cFixed(c, 2).padStart(3)}`);
}

/** C's lround: to the nearest integer, halfway cases away from zero. */
export function lround(x: number): number {
  const a = Math.abs(x);
  const f = Math.floor(a);
  return Math.sign(x) * (a - f >= 0.5 ? f + 1 : f);
}

/** The eleven standard recall levels 0.0, 0.1, ..., 1.0. */
export const ELEVEN_RECALL_LEVELS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
