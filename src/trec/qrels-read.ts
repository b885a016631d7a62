/** TREC qrels (`qid iter docno rel`), from a file or from judgments in memory. */
import { readSync } from 'node:fs';
import { RgateError } from '../core/errors.js';
import * as bytes from './bytes.js';
import { byteOrder, byteStringToText, latin1, parseInteger, sameBytes } from './bytes.js';
import { DocTable } from './doc-table.js';
import { closeInput, emptyInputError, inputError, openInput } from './input.js';

// module-local copies: splitFields reads them per byte (run-parse.ts says why that matters)
const { SP, TAB, NL, CR } = bytes;

/** C isspace minus newline: space, \t, \v, \f, \r */
function isBlank(c: number): boolean {
  return c === SP || c === TAB || c === CR || c === 11 || c === 12;
}

/** Judgments of one query: parallel arrays in file order. */
export interface QrelsQuery {
  qid: string;
  docs: Int32Array;
  rels: Int32Array;
}

export interface Qrels {
  /** qids sorted by bytes (trec_eval's query order) */
  qids: string[];
  byQid: Map<string, QrelsQuery>;
  docs: DocTable;
}

const QRELS_HINT = 'a qrels line is: <qid> <iteration> <docno> <integer relevance>, e.g. "301 0 FBIS3-10 1"';
/** trec_eval reads a grade with atol: a prefix ("1.5" is 1, "x" is 0), as a 64-bit long */
const GRADE_HINT = `${QRELS_HINT}; trec_eval reads the relevance with atol ("1.5" as 1, "x" as 0), rgate refuses it`;

/** Field boundaries of one line, filled by splitFields (reused, so no allocation per line). */
const fieldStart = new Int32Array(8);
const fieldEnd = new Int32Array(8);

/** Split buf[start, end) on blanks into up to `max` fields; returns how many were found (max+1 = more). */
function splitFields(buf: Uint8Array, start: number, end: number, max: number): number {
  let n = 0;
  let i = start;
  while (i < end) {
    while (i < end && isBlank(buf[i] as number)) i++;
    if (i >= end) break;
    if (n === max) return max + 1;
    fieldStart[n] = i;
    while (i < end && !isBlank(buf[i] as number)) i++;
    fieldEnd[n] = i;
    n++;
  }
  return n;
}

/**
 * Parse TREC qrels: `qid iter docno rel` per line; blank lines and comment lines (`#` after optional
 * blanks, as trec_eval 10 skips them) are skipped.
 * Relevance must be a 32-bit integer (negative = in the pool but unjudged, as in trec_eval); "1.5", "x"
 * and "99999999999", which trec_eval's atol reads as 1, 0 and a long, are input errors. A docno judged
 * twice for one query is an error (trec_eval refuses it too).
 */
export function parseQrels(buf: Uint8Array, label: string, docs: DocTable = new DocTable()): Qrels {
  const perQid = new Map<string, { docs: number[]; rels: number[]; lines: number[] }>();
  let lineNo = 0;
  let pos = 0;
  let prevQid = '';
  let prev: { docs: number[]; rels: number[]; lines: number[] } | undefined;
  const len = buf.length;
  while (pos < len) {
    let end = buf.indexOf(NL, pos);
    if (end < 0) end = len;
    lineNo++;
    const n = splitFields(buf, pos, end, 4);
    if (n > 0 && buf[fieldStart[0] as number] !== 35 /* # */) {
      if (n !== 4) {
        throw inputError(label, lineNo, `expected 4 fields, found ${n > 4 ? 'more' : n}`, QRELS_HINT);
      }
      const rel = parseInteger(buf, fieldStart[3] as number, fieldEnd[3] as number);
      if (!(rel >= -0x80000000 && rel <= 0x7fffffff)) {
        const text = latin1(buf, fieldStart[3] as number, fieldEnd[3] as number);
        throw inputError(
          label,
          lineNo,
          Number.isNaN(rel)
            ? `relevance "${text}" is not an integer`
            : `relevance "${text}" is out of range (-2147483648 to 2147483647)`,
          GRADE_HINT,
        );
      }
      const qs = fieldStart[0] as number;
      const qe = fieldEnd[0] as number;
      if (!prev || !sameBytes(buf, qs, qe, prevQid)) {
        prevQid = latin1(buf, qs, qe);
        prev = perQid.get(prevQid);
        if (!prev) {
          prev = { docs: [], rels: [], lines: [] };
          perQid.set(prevQid, prev);
        }
      }
      prev.docs.push(docs.intern(buf, fieldStart[2] as number, fieldEnd[2] as number));
      prev.rels.push(rel);
      prev.lines.push(lineNo);
    }
    pos = end + 1;
  }
  const qids = [...perQid.keys()].sort(byteOrder);
  const byQid = new Map<string, QrelsQuery>();
  // duplicate check with a stamp per doc id (lookups are by hash, so qrels need no docno order)
  const stamp = new Int32Array(docs.size).fill(-1);
  const firstLine = new Int32Array(docs.size);
  qids.forEach((qid, qi) => {
    const q = perQid.get(qid)!;
    q.docs.forEach((d, k) => {
      const line = q.lines[k] as number;
      if (stamp[d] === qi) {
        throw inputError(
          label,
          line,
          `query ${byteStringToText(qid)} judges document ${byteStringToText(docs.stringOf(d))} twice (first at line ${firstLine[d]})`,
          'each (query, document) pair may appear once in a qrels file',
        );
      }
      stamp[d] = qi;
      firstLine[d] = line;
    });
    byQid.set(qid, { qid, docs: Int32Array.from(q.docs), rels: Int32Array.from(q.rels) });
  });
  return { qids, byQid, docs };
}

/** Read a qrels file, `-` (stdin) or a pipe; a file without judgments is an error naming it. */
export function readQrelsFile(path: string, docs: DocTable = new DocTable()): Qrels {
  const input = openInput(path);
  let buf: Uint8Array;
  try {
    if (input.kind === 'bytes') buf = input.buf;
    else {
      const b = Buffer.allocUnsafe(input.size);
      let off = 0;
      while (off < input.size) {
        const got = readSync(input.fd, b, off, input.size - off, null);
        if (got === 0) break;
        off += got;
      }
      buf = b.subarray(0, off);
    }
  } finally {
    closeInput(input);
  }
  const qrels = parseQrels(buf, input.label, docs);
  if (qrels.qids.length === 0) throw emptyInputError(input.label, buf.length, 'judgments');
  return qrels;
}

/** Build qrels from in-memory judgments (query records), interning docnos into `docs`. */
export function qrelsFromEntries(
  entries: readonly { qid: string; docno: string; rel: number }[],
  docs: DocTable = new DocTable(),
): Qrels {
  const lines = entries.map((e) => {
    if (/\s/.test(e.qid) || /\s/.test(e.docno) || !Number.isInteger(e.rel)) {
      throw new RgateError(
        'input_invalid',
        `judgment ${e.qid} / ${e.docno}: ids must have no whitespace, grades must be integers`,
      );
    }
    return `${e.qid} 0 ${e.docno} ${e.rel}\n`;
  });
  return parseQrels(Buffer.from(lines.join(''), 'utf8'), '(queries)', docs);
}
