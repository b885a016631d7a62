import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { canonicalJson, canonicalJsonText } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { sha256, sha256Stream, type Sha256 } from '../core/hash.js';
import { assertUtf8, bomError, JSON_BOM } from '../core/utf8.js';

const CHUNK = 4 << 20;

/**
 * Stream a JSONL file once: every non-blank line is parsed, handed to `onRecord` (validation,
 * normalisation) and its canonical JSON text plus `\n` fed to one running sha256. Key order, CRLF vs
 * LF, blank lines and whitespace between JSON tokens or at line ends never change the hash; any other
 * byte does (numbers and strings are hashed as spelled; invalid UTF-8 and a BOM are refused).
 * Example: hashJsonlFile('fixtures/cacm/corpus.jsonl').sha256
 */
export function hashJsonlFile(
  path: string,
  label: string,
  onRecord?: (value: unknown, line: number) => void,
  known?: KnownHashes,
): { sha256: Sha256; lines: number } {
  // Fast path: bytes identical to the frozen ones have the frozen canonical hash, so the lines are
  // only parsed (for onRecord), not re-serialised; one raw pass at >= 1 GiB/s decides that.
  const trusted = known !== undefined && sha256FileSync(path) === known.raw;
  const h = sha256Stream();
  const fd = openExisting(path);
  const buf = Buffer.allocUnsafe(CHUNK);
  let lineNo = 0;
  let records = 0;
  const handle = (raw: string): void => {
    lineNo++;
    // trim only JSON's own whitespace (space, tab, CR): a stray \v or \f is a change, not padding
    // a BOM is refused, not skipped: a fixture that passes verify is read as its bytes say. The hash
    // never covered one, so removing it keeps the set's ids and its freeze
    if (lineNo === 1 && raw.charCodeAt(0) === 0xfeff)
      throw bomError(label, `${JSON_BOM} (removing it keeps the content id: the hash never covered it)`);
    let a = 0;
    let b = raw.length;
    while (a < b && isJsonSpace(raw.charCodeAt(a))) a++;
    while (b > a && isJsonSpace(raw.charCodeAt(b - 1))) b--;
    if (a === b) return;
    const s = a === 0 && b === raw.length ? raw : raw.slice(a, b);
    let value: unknown;
    try {
      value = JSON.parse(s);
    } catch (e) {
      throw new RgateError(
        'input_invalid',
        `${label}:${lineNo}: not valid JSON (${(e as Error).message})`,
        'each line of a .jsonl file must be one complete JSON object',
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new RgateError(
        'input_invalid',
        `${label}:${lineNo} /: must be object`,
        'one JSON object per line',
      );
    onRecord?.(value, lineNo);
    if (!trusted) h.update(canonicalLine(s, label, lineNo) + '\n');
    records++;
  };
  // Whole lines are decoded at once, and only after their bytes proved to be UTF-8: a decoder
  // would turn every invalid byte into U+FFFD, so two different files could hash the same.
  let offset = 0;
  const block = (bytes: Buffer): void => {
    assertUtf8(bytes, label, lineNo + 1, offset);
    const text = bytes.toString('utf8');
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      handle(text.slice(start, nl));
      start = nl + 1;
    }
    if (start < text.length) handle(text.slice(start));
    offset += bytes.length;
  };
  try {
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const lastNl = data.lastIndexOf(0x0a);
      if (lastNl >= 0) block(data.subarray(0, lastNl + 1));
      // buf is reused by the next read: keep a copy of the unfinished line
      carry = Buffer.from(data.subarray(lastNl + 1));
    }
    if (carry.length > 0) block(carry);
  } finally {
    closeSync(fd);
  }
  return { sha256: trusted ? known.canonical : h.digest(), lines: records };
}

/** The raw-byte and canonical sha256 a file had when frozen (freeze.json `raw_sha256` + `*_sha256`). */
export interface KnownHashes {
  raw: string;
  canonical: Sha256;
}

/** sha256 of a JSON value's canonical form (config.json is hashed after defaults are applied). */
export function hashCanonical(value: unknown): Sha256 {
  return sha256(canonicalJson(value));
}

/** sha256 of a file's raw bytes, read synchronously in 4 MiB chunks (the >= 1 GiB/s fast path of verify). */
export function sha256FileSync(path: string): Sha256 {
  const h = createHash('sha256');
  const fd = openExisting(path);
  const buf = Buffer.allocUnsafe(CHUNK);
  try {
    for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null))
      h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return `sha256:${h.digest('hex')}`;
}

function openExisting(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new RgateError(
        'file_not_found',
        `${path}: no such file`,
        'a fixture set needs corpus.jsonl, queries.jsonl and config.json',
      );
    throw e;
  }
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

function canonicalLine(line: string, label: string, lineNo: number): string {
  try {
    return canonicalJsonText(line);
  } catch (e) {
    throw new RgateError(
      'input_invalid',
      `${label}:${lineNo}: ${(e as Error).message}`,
      'a key may appear only once per object',
    );
  }
}
