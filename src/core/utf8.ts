import { isUtf8 } from 'node:buffer';
import { RgateError, type RgateErrorCode } from './errors.js';
import { shellWord } from './shell-word.js';

/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included), or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  if (isUtf8(b)) return -1;
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let len: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) [len, min] = [2, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [len, min] = [3, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [len, min] = [4, 0x10000];
    else return i;
    if (i + len > n) return i;
    let cp = c & (0xff >> (len + 1));
    for (let k = 1; k < len; k++) {
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += len;
  }
  return -1;
}

/** The 1-based line of byte `offset` in `bytes` (lines end at LF). */
export function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/**
 * Throw an input error naming `label`, the line and the byte offset when `bytes` is not UTF-8.
 * `bytes` may be a block of a larger file: `startLine` and `startOffset` place it in the file.
 */
export function assertUtf8(bytes: Uint8Array, label: string, startLine = 1, startOffset = 0): void {
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return;
  throw new RgateError(
    'input_invalid',
    `${label}:${startLine - 1 + lineAtByte(bytes, bad)}: not valid UTF-8 (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} at byte offset ${startOffset + bad} of the file)`,
    'rgate reads UTF-8 text; re-encode the file (e.g. iconv -f latin1 -t utf-8) or remove the stray bytes',
  );
}

/** Whether `b` starts with a UTF-8 byte order mark (EF BB BF). Only the first 3 bytes are read. */
export function startsWithBom(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/**
 * A file that starts with a UTF-8 byte order mark, refused by name: rgate reads no input as if the
 * mark were not there (trec_eval reads it as part of the first token), and an invisible character
 * in an id or a parse error would not name it. `why`: what the mark would have done in this input.
 */
export function bomError(label: string, why: string, code: RgateErrorCode = 'input_invalid'): RgateError {
  return new RgateError(
    code,
    `${label}:1: starts with a UTF-8 byte order mark (bytes EF BB BF): ${why}`,
    label === 'stdin'
      ? "remove it before the pipe (e.g. sed '1s/^\\xEF\\xBB\\xBF//')"
      : `save the file as UTF-8 without a BOM (e.g. sed -i '1s/^\\xEF\\xBB\\xBF//' ${shellWord(label)})`,
  );
}

/** What a BOM would be in a JSON file (RFC 8259 8.1: JSON text carries none; a parser may skip it). */
export const JSON_BOM = 'JSON text has none, and rgate does not read a file as if it were not there';
