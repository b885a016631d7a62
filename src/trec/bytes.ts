/**
 * Byte-level pieces of the TREC readers. Strings (qids, docnos, run ids) are kept as latin1 "byte
 * strings": one char per byte, so comparing two of them with `<` compares bytes exactly like C's
 * strcmp (trec_eval's tie-break), whatever the encoding. `byteStringToText` turns one back into UTF-8
 * text for display.
 */
import { FNV1A_BASIS, fnv1aStep } from '../core/fnv1a.js';

export const SP = 32;
export const TAB = 9;
export const NL = 10;
export const CR = 13;

/** FNV-1a over bytes: the hash the run parser computes while scanning a docno. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = FNV1A_BASIS;
  for (let i = start; i < end; i++) h = fnv1aStep(h, buf[i] as number);
  return h;
}

export function latin1(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1');
}

export function sameBytes(buf: Uint8Array, start: number, end: number, s: string): boolean {
  if (end - start !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (buf[start + k] !== s.charCodeAt(k)) return false;
  return true;
}

/** Are buf[a, a + n) and buf[b, b + n) the same bytes? */
export function sameRange(buf: Uint8Array, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (buf[a + k] !== buf[b + k]) return false;
  return true;
}

/** Byte order on latin1 byte strings (= strcmp). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** latin1 byte string -> display text (the bytes decoded as UTF-8). */
export function byteStringToText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
}

/** display text -> latin1 byte string (its UTF-8 bytes, one char per byte). */
export function textToByteString(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(s) ? Buffer.from(s, 'utf8').toString('latin1') : s;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16];
const POW10_22 = [...POW10, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
/** 1 .. 1e22, each exact; exported under its own name so POW10_22 stays module-local (see run-parse.ts). */
export const POWERS_OF_TEN: readonly number[] = POW10_22;

/**
 * Parse a decimal number from bytes, correctly rounded like strtod: the fast path (<= 15 significant
 * digits and a power of ten <= 1e22 — an exact integer divided or multiplied by an exact power of ten is
 * one correctly rounded operation, Clinger 1990) covers run files; anything else goes through Number().
 * Accepted: [+-] digits [. digits] or [+-] . digits, then an optional exponent [eE][+-]digits, and a
 * finite value. Returns NaN for anything else: text after the number ("12.5abc", "0x10", "1e"), nan,
 * inf, Infinity, and a number beyond the largest double ("1e400"), all of which C's atof reads as a
 * prefix, 0 or a non-finite value (docs/DECISIONS.md, "Stricter input checks").
 */
export function parseDecimal(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  let neg = false;
  const c0 = buf[i];
  if (c0 === 45 /* - */ || c0 === 43 /* + */) {
    neg = c0 === 45;
    i++;
  }
  let mant = 0;
  let digits = 0;
  let fracDigits = 0;
  let any = false;
  while (i < end) {
    const d = (buf[i] as number) - 48;
    if (d < 0 || d > 9) break;
    any = true;
    if (digits > 0 || d !== 0) digits++;
    mant = mant * 10 + d;
    i++;
  }
  if (i < end && buf[i] === 46 /* . */) {
    i++;
    while (i < end) {
      const d = (buf[i] as number) - 48;
      if (d < 0 || d > 9) break;
      any = true;
      if (digits > 0 || d !== 0) digits++;
      mant = mant * 10 + d;
      fracDigits++;
      i++;
    }
  }
  if (!any) return NaN;
  if (i === end && digits <= 15 && fracDigits <= 22) {
    const v = fracDigits === 0 ? mant : mant / (POW10_22[fracDigits] as number);
    return neg ? -v : v;
  }
  if (i < end && (buf[i] === 101 /* e */ || buf[i] === 69) /* E */) {
    i++;
    if (i < end && (buf[i] === 43 || buf[i] === 45)) i++;
    const digitsFrom = i;
    while (i < end && (buf[i] as number) >= 48 && (buf[i] as number) <= 57) i++;
    if (i === digitsFrom) return NaN;
  }
  if (i !== end) return NaN;
  // the bytes are now a decimal literal Number() reads the same way (and rounds as strtod does)
  const v = Number(Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1'));
  return Number.isFinite(v) ? v : NaN;
}

export function parseInteger(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  let neg = false;
  if (buf[i] === 45 || buf[i] === 43) {
    neg = buf[i] === 45;
    i++;
  }
  if (i >= end) return NaN;
  let v = 0;
  for (; i < end; i++) {
    const d = (buf[i] as number) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return neg ? -v : v;
}
