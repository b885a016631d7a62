/** TREC qrels (`qid iter docno rel`), from a file or from judgments in memory. */
import { readSync } from 'node:fs';
import { RgateError } from '../core/errors.js';
import * as bytes from './bytes.js';
import { byteOrder, byteStringToText, latin1, parseInteger, POWERS_OF_TEN, sameRange } from './bytes.js';
import { FNV1A_BASIS, fnv1aStep } from '../core/fnv1a.js';
import { DocTable } from './doc-table.js';
import { closeInput, emptyInputError, inputError, openInput, trecBomError } from './input.js';
import { startsWithBom } from '../core/utf8.js';
import { QidTable } from './qid-table.js';
import { scanQrels } from './run-scan.js';

// module-local copies: parseQrels reads them per byte (run-parse.ts says why that matters)
const { SP, TAB, NL, CR } = bytes;

/** Byte classes: 1 = blank (C isspace minus newline), 2 = newline, 0 = field byte. */
const BLANK = new Uint8Array(256);
for (const b of [SP, TAB, CR, 11, 12]) BLANK[b] = 1;
BLANK[NL] = 2;
/** the scanner's tables (the run parser's: the same classes) */
const SCAN_TABLES = { blank: BLANK, powersOfTen: POWERS_OF_TEN };

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
/** trec_eval 10's qrels reader skips a "#" line only at the line's first byte, one line at a time */
const COMMENT_HINT =
  'a qrels comment is a line starting with "#" at its first byte, not right after another comment line; trec_eval 10 reads this one as a judgment (query "#...") or stops on it, rgate refuses it: remove it or join it to the comment before';

/**
 * Parse TREC qrels: `qid iter docno rel` per line; blank lines and comment lines are skipped. A
 * comment is a line whose first byte is `#`: trec_eval 10 reads a `#` after blanks, and a comment
 * line right after another, as a judgment (query `#...`) or stops on it, so rgate refuses both.
 * Relevance must be a 32-bit integer (negative = in the pool but unjudged, as in trec_eval); "1.5", "x"
 * and "99999999999", which trec_eval's atol reads as 1, 0 and a long, are input errors. A docno judged
 * twice for one query is an error (trec_eval refuses it too).
 */
export function parseQrels(buf: Uint8Array, label: string, docs: DocTable = new DocTable()): Qrels {
  if (startsWithBom(buf)) throw trecBomError(label);
  // one pass into flat arrays (a line's query, document, grade and number), grouped by query after:
  // no array or string per line
  // a judgment line has four fields, blanks between them and a newline: at least 8 bytes (7 the last),
  // so this many always fit (no growth path, which would cost the compiled loop a deoptimisation)
  const cap = Math.floor(buf.length / 7) + 1;
  const st: QrelsState = {
    buf,
    label,
    docs,
    table: new QidTable(),
    qOf: new Int32Array(cap),
    docOf: new Int32Array(cap),
    relOf: new Int32Array(cap),
    lineOf: new Int32Array(cap),
    n: 0,
    grouped: true,
    lineNo: 0,
    prevQ: -1,
    prevHash: 0,
    prevStart: 0,
    prevEnd: -1,
    prevComment: false,
  };
  // a qrels line is ~16 bytes or more, its docno under half of it: room for all its documents up
  // front (dense TREC pools judge hundreds of thousands); each line's docno gets its own id (append):
  // judgments are matched per query, by hash and bytes
  docs.reserve(buf.length >> 4, buf.length >> 1);
  // pieces of whole lines, each scanned in WebAssembly (compiled speed from the first byte, where
  // readLines's loop waits for the JIT and keeps V8's compiler threads busy: a TREC pool's 375k
  // lines, the first parse in a process, ~350 -> ~190 ms of CPU) or, when the scanner declines a
  // piece (a line to report, an unusual grade), by readLines
  for (let from = 0; from < buf.length;) {
    const to = pieceEnd(buf, from);
    if (!scanPiece(st, from, to)) readLines(st, from, to);
    from = to;
  }
  refuseHugeGrade(st);
  return groupByQuery(label, st.table, docs, st);
}

/**
 * The highest grade rgate takes. A query's grade counts and gain table run from 0 to its highest
 * grade, as trec_eval's do (it took 16 GB and 95 s on a grade of 2^31 - 1, and more than two
 * minutes on -m all_trec at 1,000,000, where rgate takes two seconds): above this a grade is refused
 * by line rather than let a run out of memory.
 */
export const MAX_GRADE = 1_000_000;

function refuseHugeGrade(st: QrelsState): void {
  const { relOf, n } = st;
  for (let i = 0; i < n; i++) {
    const g = relOf[i]!;
    if (g <= MAX_GRADE) continue;
    throw inputError(
      st.label,
      st.lineOf[i]!,
      `relevance "${g}" is above ${MAX_GRADE}, the highest grade rgate takes`,
      `grades are small integers (TREC: 0-4; negative = pooled, not judged); rgate keeps a count for every grade from 0 to the highest, as trec_eval does, so a grade this high would run out of memory`,
    );
  }
}

/**
 * The scanner's pieces: small, so that V8 has compiled the scanner's optimised code after the first
 * few (a call runs to its end in the code it started in: 2 MiB pieces spent 27-42 ms in the scanner
 * on 6.8 MB, these 7-19) and its memory stays within what a run's chunks use after.
 */
const PIECE_BYTES = 1 << 18;

/** The end of the piece starting at `from`: after the last newline within PIECE_BYTES (or the line's). */
function pieceEnd(buf: Uint8Array, from: number): number {
  if (buf.length - from <= PIECE_BYTES) return buf.length;
  const nl = buf.lastIndexOf(NL, from + PIECE_BYTES - 1);
  if (nl >= from) return nl + 1;
  const next = buf.indexOf(NL, from + PIECE_BYTES);
  return next < 0 ? buf.length : next + 1;
}

/** parseQrels's state between pieces: the lines so far (QrelsLines) and the previous line's qid. */
interface QrelsState extends QrelsLines {
  buf: Uint8Array;
  label: string;
  docs: DocTable;
  table: QidTable;
  lineNo: number;
  prevQ: number;
  prevHash: number;
  prevStart: number;
  prevEnd: number;
  /** whether the last non-blank line read was a comment line */
  prevComment: boolean;
}

/** The query of a line whose qid is buf[qs, qe) (hash qh), interned; notes a query coming back. */
function queryOf(st: QrelsState, qs: number, qe: number, qh: number): number {
  const { buf } = st;
  // a query's judgments are usually together: the previous line's qid first
  if (
    qh !== st.prevHash ||
    qe - qs !== st.prevEnd - st.prevStart ||
    !sameRange(buf, qs, st.prevStart, qe - qs)
  ) {
    const known = st.table.size;
    st.prevQ = st.table.indexOfBytes(buf, qs, qe, qh);
    // a query coming back after another one: the lines are not grouped by query
    if (st.table.size === known) st.grouped = false;
    st.prevHash = qh;
  }
  st.prevStart = qs;
  st.prevEnd = qe;
  return st.prevQ;
}

/** Scan buf[from, to) in WebAssembly into the state; false (nothing stored) when it declines. */
function scanPiece(st: QrelsState, from: number, to: number): boolean {
  const next = st.docs.nextAppend();
  const r = scanQrels(st.buf, from, to, { ...next, line: st.lineNo }, SCAN_TABLES);
  if (!r) return false;
  const { n, runs } = r;
  const at = st.n;
  for (let k = 0; k < runs.length; k += 4) {
    const q = queryOf(
      st,
      from + (runs[k + 1] as number),
      from + (runs[k + 2] as number),
      runs[k + 3] as number,
    );
    const end = k + 4 < runs.length ? (runs[k + 4] as number) : n;
    st.qOf.fill(q, at + (runs[k] as number), at + end);
  }
  st.docs.appendScanned(r.arena, r.dOff, r.dLen, r.h, n);
  st.docOf.set(r.id, at);
  st.relOf.set(r.rel, at);
  st.lineOf.set(r.line, at);
  st.lineNo += r.lines;
  st.n += n;
  // the scanner declines a piece with a comment line: this one ends in a judgment or a blank line
  st.prevComment = false;
  return true;
}

/** Read the lines of buf[from, to) into the state in JS, reporting the first bad one. */
function readLines(st: QrelsState, from: number, to: number): void {
  const { buf, label, docs, qOf, docOf, relOf, lineOf } = st;
  let n = st.n;
  let lineNo = st.lineNo;
  let i = from;
  let c = 0;
  const len = to;
  // one pass over each line's bytes: fields found, qid and docno hashed while scanning (a call to
  // Buffer.indexOf for each line's end, then a second walk to split it, was half of this loop)
  let prevComment = st.prevComment;
  while (i < len) {
    lineNo++;
    const ls = i;
    while (i < len && BLANK[(c = buf[i] as number)] === 1) i++;
    if (i >= len || c === NL) {
      i++;
      prevComment = false;
      continue; // blank line
    }
    if (c === 35 /* # */) {
      if (i !== ls) throw inputError(label, lineNo, 'a "#" after blanks is not a comment', COMMENT_HINT);
      if (prevComment) throw inputError(label, lineNo, 'a comment line right after another', COMMENT_HINT);
      prevComment = true;
      while (i < len && buf[i] !== NL) i++;
      i++;
      continue;
    }
    prevComment = false;
    const qs = i;
    let qh = FNV1A_BASIS;
    while (i < len && BLANK[(c = buf[i] as number)] === 0) {
      qh = fnv1aStep(qh, c);
      i++;
    }
    const qe = i;
    let nf = 1;
    // field 2: iteration, ignored
    while (i < len && BLANK[(c = buf[i] as number)] === 1) i++;
    if (i < len && c !== NL) {
      nf++;
      while (i < len && BLANK[buf[i] as number] === 0) i++;
    }
    // field 3: docno, hashed while scanning
    while (i < len && BLANK[(c = buf[i] as number)] === 1) i++;
    const ds = i;
    let dh = FNV1A_BASIS;
    if (nf === 2 && i < len && c !== NL) {
      nf++;
      while (i < len && BLANK[(c = buf[i] as number)] === 0) {
        dh = fnv1aStep(dh, c);
        i++;
      }
    }
    const de = i;
    // field 4: relevance
    while (i < len && BLANK[(c = buf[i] as number)] === 1) i++;
    const rs = i;
    if (nf === 3 && i < len && c !== NL) {
      nf++;
      while (i < len && BLANK[buf[i] as number] === 0) i++;
    }
    const re = i;
    // anything but blanks before the newline is a fifth field
    while (i < len && BLANK[(c = buf[i] as number)] === 1) i++;
    if (i < len && c !== NL) nf++;
    while (i < len && buf[i] !== NL) i++;
    i++;
    if (nf !== 4) {
      throw inputError(label, lineNo, `expected 4 fields, found ${nf > 4 ? 'more' : nf}`, QRELS_HINT);
    }
    const rel = parseInteger(buf, rs, re);
    if (!(rel >= -0x80000000 && rel <= 0x7fffffff)) {
      const text = latin1(buf, rs, re);
      throw inputError(
        label,
        lineNo,
        Number.isNaN(rel)
          ? `relevance "${text}" is not an integer`
          : `relevance "${text}" is out of range (-2147483648 to 2147483647)`,
        GRADE_HINT,
      );
    }
    qOf[n] = queryOf(st, qs, qe, qh);
    docOf[n] = docs.appendHashed(buf, ds, de, dh);
    relOf[n] = rel;
    lineOf[n] = lineNo;
    n++;
  }
  st.n = n;
  st.lineNo = lineNo;
  st.prevComment = prevComment;
}

/** parseQrels's lines: flat arrays in file order (n used), and whether each query's lines are together */
interface QrelsLines {
  qOf: Int32Array;
  docOf: Int32Array;
  relOf: Int32Array;
  lineOf: Int32Array;
  n: number;
  grouped: boolean;
}

/**
 * The lines grouped by query (stable: file order inside a query), the queries in trec_eval's order,
 * each query checked for a document judged twice.
 */
function groupByQuery(label: string, table: QidTable, docs: DocTable, lines: QrelsLines): Qrels {
  const { qOf, docOf, relOf, lineOf, n, grouped } = lines;
  const nq = table.size;
  const first = new Int32Array(nq + 1);
  for (let i = 0; i < n; i++) first[(qOf[i] as number) + 1]!++;
  for (let q = 0; q < nq; q++) first[q + 1]! += first[q] as number;
  // qrels are usually written query by query: then they are grouped already (moving them to new
  // arrays, fresh memory, was a third of reading a TREC pool's qrels)
  let docsByQ = docOf;
  let relsByQ = relOf;
  let linesByQ = lineOf;
  if (!grouped) {
    const next = first.slice(0, nq);
    docsByQ = new Int32Array(n);
    relsByQ = new Int32Array(n);
    linesByQ = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const at = next[qOf[i] as number]!++;
      docsByQ[at] = docOf[i] as number;
      relsByQ[at] = relOf[i] as number;
      linesByQ[at] = lineOf[i] as number;
    }
  }
  const order = Array.from({ length: nq }, (_, q) => q).sort((a, b) =>
    byteOrder(table.qids[a]!, table.qids[b]!),
  );
  const qids = order.map((q) => table.qids[q]!);
  const byQid = new Map<string, QrelsQuery>();
  // duplicate check per query, in trec_eval's query order: a small open-addressing table of the
  // query's documents by hash (the ids are per line, so equal docnos are compared by bytes)
  let slots = new Int32Array(64);
  for (let qi = 0; qi < nq; qi++) {
    const q = order[qi]!;
    const qid = table.qids[q]!;
    const from = first[q] as number;
    const to = first[q + 1] as number;
    let size = 16;
    while (size < (to - from) * 2) size <<= 1;
    if (slots.length < size) slots = new Int32Array(size);
    slots.fill(0, 0, size);
    const mask = size - 1;
    for (let k = from; k < to; k++) {
      const d = docsByQ[k] as number;
      let slot = docs.hashOf(d) & mask;
      for (let at = slots[slot] as number; at !== 0; at = slots[(slot = (slot + 1) & mask)] as number) {
        if (!docs.sameBytes(docsByQ[at - 1] as number, d)) continue;
        throw inputError(
          label,
          linesByQ[k] as number,
          `query ${byteStringToText(qid)} judges document ${byteStringToText(docs.stringOf(d))} twice (first at line ${linesByQ[at - 1]})`,
          'each (query, document) pair may appear once in a qrels file',
        );
      }
      slots[slot] = k + 1;
    }
    byQid.set(qid, { qid, docs: docsByQ.subarray(from, to), rels: relsByQ.subarray(from, to) });
  }
  return { qids, byQid, docs };
}

/**
 * Read a qrels file, `-` (stdin) or a pipe; a file without judgments is an error naming it (as
 * `label`, default the path).
 */
export function readQrelsFile(path: string, docs: DocTable = new DocTable(), label?: string): Qrels {
  const input = openInput(path, label);
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
