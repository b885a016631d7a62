/**
 * TREC qrels and run files, read at the byte level and written back.
 *
 * Why bytes: a 7,000-query x 1,000-document run has 7 million lines; a split/readline parser allocates
 * several strings per line and is ~5x slower. Here a line is scanned once, docnos are interned by
 * hashing their bytes (no string is made for a docno seen before), and scores are parsed from digits.
 *
 * Strings (qids, docnos, run ids) are kept as latin1 "byte strings": one char per byte, so comparing two
 * of them with `<` compares bytes exactly like C's strcmp (trec_eval's tie-break), whatever the
 * encoding. `byteStringToText` turns one back into UTF-8 text for display.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { basename } from 'node:path';
import { RgateError } from '../core/errors.js';

/** Intern table for docnos: id <-> byte string, looked up by the raw bytes without allocating. */
export class DocTable {
  /** id -> latin1 byte string, made on first request (most ids are only ever compared as bytes) */
  private readonly cache: (string | undefined)[] = [];
  private count = 0;
  private slots = new Int32Array(1 << 16).fill(-1);
  private mask = (1 << 16) - 1;
  private arena = new Uint8Array(1 << 20);
  private arenaUsed = 0;
  private offsets: Int32Array = new Int32Array(1 << 12);
  private lengths: Int32Array = new Int32Array(1 << 12);
  private hashes: Int32Array = new Int32Array(1 << 12);

  get size(): number {
    return this.count;
  }

  /** hashBytes of an id's bytes. */
  hashOf(id: number): number {
    return this.hashes[id] as number;
  }

  /** Do the bytes of id equal buf[start, end)? */
  equalsBytes(id: number, buf: Uint8Array, start: number, end: number): boolean {
    const len = end - start;
    if (this.lengths[id] !== len) return false;
    const off = this.offsets[id] as number;
    for (let k = 0; k < len; k++) if (this.arena[off + k] !== buf[start + k]) return false;
    return true;
  }

  /** The latin1 byte string of an id. */
  stringOf(id: number): string {
    let v = this.cache[id];
    if (v === undefined) {
      const off = this.offsets[id] as number;
      v = latin1(this.arena, off, off + (this.lengths[id] as number));
      this.cache[id] = v;
    }
    return v;
  }

  /** Intern bytes buf[start, end) and return the id. */
  intern(buf: Uint8Array, start: number, end: number): number {
    const h = hashBytes(buf, start, end);
    const slot = this.probe(buf, start, end, h);
    return slot >= 0 ? (this.slots[slot] as number) : this.add(buf, start, end, h, ~slot);
  }

  /** The id of bytes buf[start, end) whose hashBytes is h, or -1 when they were never interned. */
  find(buf: Uint8Array, start: number, end: number, h: number): number {
    const slot = this.probe(buf, start, end, h);
    return slot >= 0 ? (this.slots[slot] as number) : -1;
  }

  /** The slot holding these bytes, or ~(the empty slot where they would go). */
  private probe(buf: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    let slot = h & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id < 0) break;
      if (this.hashes[id] === h && this.lengths[id] === len) {
        const off = this.offsets[id] as number;
        let same = true;
        for (let k = 0; k < len; k++) {
          if (this.arena[off + k] !== buf[start + k]) {
            same = false;
            break;
          }
        }
        if (same) return slot;
      }
      slot = (slot + 1) & this.mask;
    }
    return ~slot;
  }

  /** Intern a latin1 byte string (see byteString). */
  internString(s: string): number {
    const b = Buffer.from(s, 'latin1');
    return this.intern(b, 0, b.length);
  }

  private add(buf: Uint8Array, start: number, end: number, h: number, slot: number): number {
    const id = this.count;
    const len = end - start;
    if (id >= this.offsets.length) {
      const n = this.offsets.length * 2;
      this.offsets = grow32(this.offsets, n);
      this.lengths = grow32(this.lengths, n);
      this.hashes = grow32(this.hashes, n);
    }
    if (this.arenaUsed + len > this.arena.length) {
      const next = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + len));
      next.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = next;
    }
    this.arena.set(buf.subarray(start, end), this.arenaUsed);
    this.offsets[id] = this.arenaUsed;
    this.lengths[id] = len;
    this.hashes[id] = h;
    this.arenaUsed += len;
    this.count++;
    this.slots[slot] = id;
    // keep the load factor under 1/2 so probes stay short
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = (this.hashes[id] as number) & this.mask;
      while ((this.slots[slot] as number) >= 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id;
    }
  }
}

/** FNV-1a over bytes: the hash the run parser computes while scanning a docno. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (buf[i] as number), 0x01000193);
  return h;
}

function grow32(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
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

/** Ranked results of one query: entries [start, end) of the run's flat arrays, in file order. */
export interface RunQuery {
  qid: string;
  start: number;
  end: number;
}

/**
 * A parsed run. Entries are stored flat and grouped by query; a docno is kept as its bytes in `arena`
 * (offset, length) plus its FNV-1a hash, so 7 million lines make no per-line string. The evaluator
 * looks each hash up in the (small) qrels table and compares arena bytes only to break score ties.
 */
export interface TrecRun {
  /** run id of the last line, as trec_eval reports it */
  runId: string;
  /** qids in order of first appearance */
  qids: string[];
  byQid: Map<string, RunQuery>;
  lines: number;
  scores: Float64Array;
  hashes: Int32Array;
  docOff: Int32Array;
  docLen: Int32Array;
  /** 1-based file line of each entry */
  lineOf: Int32Array;
  arena: Uint8Array;
}

/** The docno of run entry i as a latin1 byte string. */
export function runDocno(run: TrecRun, i: number): string {
  const off = run.docOff[i] as number;
  return latin1(run.arena, off, off + (run.docLen[i] as number));
}

/** Byte-order comparison of the docnos of run entries a and b (strcmp). */
export function compareRunDocnos(run: TrecRun, a: number, b: number): number {
  const arena = run.arena;
  const oa = run.docOff[a] as number;
  const ob = run.docOff[b] as number;
  const la = run.docLen[a] as number;
  const lb = run.docLen[b] as number;
  const n = la < lb ? la : lb;
  for (let k = 0; k < n; k++) {
    const d = (arena[oa + k] as number) - (arena[ob + k] as number);
    if (d !== 0) return d;
  }
  return la - lb;
}

const SP = 32;
const TAB = 9;
const NL = 10;
const CR = 13;

/** Byte classes for the run scanner: 1 = blank (C isspace minus newline), 2 = newline, 0 = field byte. */
const BLANK = new Uint8Array(256);
for (const b of [SP, TAB, CR, 11, 12]) BLANK[b] = 1;
BLANK[NL] = 2;

/** C isspace minus newline: space, \t, \v, \f, \r */
function isBlank(c: number): boolean {
  return c === SP || c === TAB || c === CR || c === 11 || c === 12;
}

function inputError(label: string, line: number, what: string, hint: string): RgateError {
  return new RgateError('input_invalid', `${label}:${line}: ${what}`, hint);
}

const QRELS_HINT = 'a qrels line is: <qid> <iteration> <docno> <integer relevance>, e.g. "301 0 FBIS3-10 1"';
const RUN_HINT =
  'a run line is: <qid> Q0 <docno> <rank> <score> <run-id>, e.g. "301 Q0 FBIS3-10 1 12.5 myrun"';

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

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16];
const POW10_22 = [...POW10, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Parse a decimal number from bytes, correctly rounded like strtod: the fast path (<= 15 significant
 * digits and a power of ten <= 1e22 — an exact integer divided or multiplied by an exact power of ten is
 * one correctly rounded operation, Clinger 1990) covers run files; anything else goes through Number().
 * Returns NaN when the bytes are not a number.
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
  const v = Number(Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1'));
  return v;
}

function parseInteger(buf: Uint8Array, start: number, end: number): number {
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

function latin1(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1');
}

function sameBytes(buf: Uint8Array, start: number, end: number, s: string): boolean {
  if (end - start !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (buf[start + k] !== s.charCodeAt(k)) return false;
  return true;
}

/**
 * Parse TREC qrels: `qid iter docno rel` per line; blank lines and lines starting with `#` are skipped.
 * Relevance must be an integer (negative = in the pool but unjudged, as in trec_eval). A docno judged
 * twice for one query is an error (trec_eval refuses it too).
 */
export function parseQrels(buf: Uint8Array, label: string, docs: DocTable = new DocTable()): Qrels {
  const perQid = new Map<string, { docs: number[]; rels: number[] }>();
  let lineNo = 0;
  let pos = 0;
  let prevQid = '';
  let prev: { docs: number[]; rels: number[] } | undefined;
  const len = buf.length;
  while (pos < len) {
    let end = buf.indexOf(NL, pos);
    if (end < 0) end = len;
    lineNo++;
    const n = splitFields(buf, pos, end, 4);
    const first = buf[pos];
    if (n > 0 && !(first === 35 /* # */)) {
      if (n !== 4) {
        throw inputError(label, lineNo, `expected 4 fields, found ${n > 4 ? 'more' : n}`, QRELS_HINT);
      }
      const rel = parseInteger(buf, fieldStart[3] as number, fieldEnd[3] as number);
      if (!Number.isFinite(rel)) {
        throw inputError(
          label,
          lineNo,
          `relevance "${latin1(buf, fieldStart[3] as number, fieldEnd[3] as number)}" is not an integer`,
          QRELS_HINT,
        );
      }
      const qs = fieldStart[0] as number;
      const qe = fieldEnd[0] as number;
      if (!prev || !sameBytes(buf, qs, qe, prevQid)) {
        prevQid = latin1(buf, qs, qe);
        prev = perQid.get(prevQid);
        if (!prev) {
          prev = { docs: [], rels: [] };
          perQid.set(prevQid, prev);
        }
      }
      prev.docs.push(docs.intern(buf, fieldStart[2] as number, fieldEnd[2] as number));
      prev.rels.push(rel);
    }
    pos = end + 1;
  }
  const qids = [...perQid.keys()].sort(byteOrder);
  const byQid = new Map<string, QrelsQuery>();
  // duplicate check with a stamp per doc id (lookups are by hash, so qrels need no docno order)
  const stamp = new Int32Array(docs.size).fill(-1);
  qids.forEach((qid, qi) => {
    const q = perQid.get(qid)!;
    for (const d of q.docs) {
      if (stamp[d] === qi) {
        throw new RgateError(
          'input_invalid',
          `${label}: query ${byteStringToText(qid)} judges document ${byteStringToText(docs.stringOf(d))} twice`,
          'each (query, document) pair may appear once in a qrels file',
        );
      }
      stamp[d] = qi;
    }
    byQid.set(qid, { qid, docs: Int32Array.from(q.docs), rels: Int32Array.from(q.rels) });
  });
  return { qids, byQid, docs };
}

/** Byte order on latin1 byte strings (= strcmp). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Incremental run parser: feed it whole lines. One pass over each line's bytes: fields are found,
 * the docno is hashed and copied into the arena, and the score is parsed from its digits.
 */
export class RunBuilder {
  private qidIdx: Int32Array;
  private hashes: Int32Array;
  private docOff: Int32Array;
  private docLen: Int32Array;
  private scores: Float64Array;
  private lineOf: Int32Array;
  private arena: Uint8Array;
  private arenaUsed = 0;
  private count = 0;
  /** entries and arena bytes this builder may use: the arrays' ends, or a region of shared arrays */
  private entryLimit: number;
  private arenaLimit: number;
  private readonly fixed: boolean;
  private qids: string[] = [];
  private qidMap = new Map<string, number>();
  private prevQid = '';
  private prevQidIdx = -1;
  runId = '';
  lineNo = 0;

  /**
   * Growable arrays of `capacity` entries, or (region) a fixed slice of shared storage: entries
   * [entryBase, entryLimit) and arena bytes [arenaBase, arenaLimit); overflowing a region throws
   * RegionFull so the caller can fall back to one thread.
   */
  constructor(
    private readonly label: string,
    capacity: number,
    arenaBytes: number,
    region?: {
      storage: RunStorage;
      entryBase: number;
      entryLimit: number;
      arenaBase: number;
      arenaLimit: number;
    },
  ) {
    if (region) {
      const st = region.storage;
      this.qidIdx = st.qidIdx;
      this.hashes = st.hashes;
      this.docOff = st.docOff;
      this.docLen = st.docLen;
      this.scores = st.scores;
      this.lineOf = st.lineOf;
      this.arena = st.arena;
      this.count = region.entryBase;
      this.entryLimit = region.entryLimit;
      this.arenaUsed = region.arenaBase;
      this.arenaLimit = region.arenaLimit;
      this.fixed = true;
      return;
    }
    const cap = Math.max(1024, capacity);
    this.qidIdx = new Int32Array(cap);
    this.hashes = new Int32Array(cap);
    this.docOff = new Int32Array(cap);
    this.docLen = new Int32Array(cap);
    this.scores = new Float64Array(cap);
    this.lineOf = new Int32Array(cap);
    this.arena = new Uint8Array(Math.max(1 << 16, arenaBytes));
    this.entryLimit = cap;
    this.arenaLimit = this.arena.length;
    this.fixed = false;
  }

  /** Entries stored so far (absolute index one past the last). */
  get entries(): number {
    return this.count;
  }

  /**
   * Parse every line of buf[0, end); end must be at a newline or the end of the file. One function
   * with the arrays in locals: this loop is the whole cost of reading a large run.
   */
  feed(buf: Uint8Array, end: number): void {
    let i = 0;
    let c = 0;
    // capacity for every line of this chunk, so the loop never checks
    let lines = 0;
    for (let p = buf.indexOf(NL, 0); p >= 0 && p < end; p = buf.indexOf(NL, p + 1)) lines++;
    while (this.count + lines + 1 > this.entryLimit) this.grow();
    let arena = this.arena;
    let arenaLimit = this.arenaLimit;
    const hashes = this.hashes;
    const docOff = this.docOff;
    const docLen = this.docLen;
    const scores = this.scores;
    const lineOf = this.lineOf;
    const qidIdx = this.qidIdx;
    let o = this.arenaUsed;
    let n = this.count;
    let lineNo = this.lineNo;
    while (i < end) {
      lineNo++;
      // field 1: qid
      while (i < end && BLANK[(c = buf[i] as number)] === 1) i++;
      if (i >= end || c === NL) {
        i++;
        continue; // blank line
      }
      const qs = i;
      while (i < end && BLANK[buf[i] as number] === 0) i++;
      const qe = i;
      let fields = 1;
      // field 2: iteration ("Q0"), ignored
      while (i < end && BLANK[(c = buf[i] as number)] === 1) i++;
      if (i < end && c !== NL) {
        fields++;
        while (i < end && BLANK[buf[i] as number] === 0) i++;
      }
      // field 3: docno, hashed and copied while scanning
      while (i < end && BLANK[(c = buf[i] as number)] === 1) i++;
      const ds = i;
      const dOff = o;
      let h = 0x811c9dc5;
      if (fields === 2 && i < end && c !== NL) {
        fields++;
        while (i < end && BLANK[(c = buf[i] as number)] === 0) {
          h = Math.imul(h ^ c, 0x01000193);
          i++;
        }
      }
      const de = i;
      if (o + (de - ds) > arenaLimit) {
        this.arenaUsed = o;
        this.ensureArena(o + (de - ds));
        arena = this.arena;
        arenaLimit = this.arenaLimit;
      }
      for (let k = ds; k < de; k++) arena[o++] = buf[k] as number;
      // field 4: rank, ignored (trec_eval orders by score)
      while (i < end && BLANK[(c = buf[i] as number)] === 1) i++;
      if (fields === 3 && i < end && c !== NL) {
        fields++;
        while (i < end && BLANK[buf[i] as number] === 0) i++;
      }
      // field 5: score; plain decimals are parsed inline, anything else by parseDecimal
      while (i < end && BLANK[(c = buf[i] as number)] === 1) i++;
      const ss = i;
      let score = NaN;
      if (fields === 4 && i < end && c !== NL) {
        fields++;
        let mant = 0;
        let digits = 0;
        let frac = -1;
        let simple = true;
        while (i < end && BLANK[(c = buf[i] as number)] === 0) {
          if (c >= 48 && c <= 57) {
            mant = mant * 10 + (c - 48);
            digits++;
            if (frac >= 0) frac++;
          } else if (c === 46 && frac < 0) frac = 0;
          else simple = false;
          i++;
        }
        score =
          simple && digits > 0 && digits <= 15
            ? frac > 0
              ? mant / (POW10_22[frac] as number)
              : mant
            : parseDecimal(buf, ss, i);
      }
      const se = i;
      // field 6: run id; anything after it is ignored, as trec_eval does
      while (i < end && BLANK[(c = buf[i] as number)] === 1) i++;
      const rs = i;
      if (fields === 5 && i < end && c !== NL) {
        fields++;
        while (i < end && BLANK[buf[i] as number] === 0) i++;
      }
      const re = i;
      while (i < end && buf[i] !== NL) i++;
      i++;
      if (fields < 6) {
        this.lineNo = lineNo;
        this.fail(`expected 6 fields, found ${fields}`);
      }
      if (Number.isNaN(score)) {
        this.lineNo = lineNo;
        this.fail(`score "${latin1(buf, ss, se)}" is not a number`);
      }
      let q = this.prevQidIdx;
      if (q < 0 || !sameBytes(buf, qs, qe, this.prevQid)) q = this.qidIndex(latin1(buf, qs, qe));
      qidIdx[n] = q;
      hashes[n] = h;
      docOff[n] = dOff;
      docLen[n] = de - ds;
      scores[n] = score;
      lineOf[n] = lineNo;
      n++;
      // the run id of the last line wins (trec_eval); compare bytes so most lines make no string
      if (!sameBytes(buf, rs, re, this.runId)) this.runId = latin1(buf, rs, re);
    }
    this.count = n;
    this.arenaUsed = o;
    this.lineNo = lineNo;
  }

  /** Add one entry directly (in-memory runs); qid is a byte string, docno its bytes. */
  add(qid: string, docno: Uint8Array, score: number): void {
    if (this.count + 1 > this.scores.length) this.grow();
    if (this.arenaUsed + docno.length > this.arena.length)
      this.reserveArena(this.arena.length * 2 + docno.length);
    const q = this.prevQidIdx >= 0 && qid === this.prevQid ? this.prevQidIdx : this.qidIndex(qid);
    const n = this.count++;
    this.lineNo++;
    this.qidIdx[n] = q;
    this.hashes[n] = hashBytes(docno, 0, docno.length);
    this.docOff[n] = this.arenaUsed;
    this.docLen[n] = docno.length;
    this.scores[n] = score;
    this.lineOf[n] = this.lineNo;
    this.arena.set(docno, this.arenaUsed);
    this.arenaUsed += docno.length;
  }

  private qidIndex(qid: string): number {
    let idx = this.qidMap.get(qid);
    if (idx === undefined) {
      idx = this.qids.length;
      this.qids.push(qid);
      this.qidMap.set(qid, idx);
    }
    this.prevQid = qid;
    this.prevQidIdx = idx;
    return idx;
  }

  private fail(what: string): never {
    // line and what travel separately so a worker's error can be renumbered by the main thread
    throw Object.assign(inputError(this.label, this.lineNo, what, RUN_HINT), { line: this.lineNo, what });
  }

  /** Bytes of docnos stored so far (to size the arena from the first chunk). */
  get arenaBytes(): number {
    return this.arenaUsed;
  }

  reserveArena(bytes: number): void {
    if (this.fixed || bytes <= this.arena.length) return;
    const next = new Uint8Array(bytes);
    next.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = next;
    this.arenaLimit = bytes;
  }

  private ensureArena(bytes: number): void {
    if (this.fixed) throw new RegionFull();
    this.reserveArena(Math.max(this.arena.length * 2, bytes));
  }

  private grow(): void {
    if (this.fixed) throw new RegionFull();
    const n = this.scores.length * 2;
    const g32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.qidIdx = g32(this.qidIdx);
    this.hashes = g32(this.hashes);
    this.docOff = g32(this.docOff);
    this.docLen = g32(this.docLen);
    this.lineOf = g32(this.lineOf);
    const s = new Float64Array(n);
    s.set(this.scores);
    this.scores = s;
    this.entryLimit = n;
  }

  /** What a region builder hands back to the thread that merges. */
  regionResult(): RegionResult {
    return {
      end: this.count,
      arenaEnd: this.arenaUsed,
      qids: this.qids.slice(),
      runId: this.runId,
      lines: this.lineNo,
    };
  }

  /**
   * Append another region's entries (parsed by a worker into the same shared storage at
   * [base, r.end)) after this builder's: move them down, renumber their queries into this builder's
   * first-appearance order, and shift their line numbers by the lines this builder read.
   */
  absorb(base: number, r: RegionResult): void {
    const n = r.end - base;
    const at = this.count;
    if (n > 0) {
      for (const a of [this.qidIdx, this.hashes, this.docOff, this.docLen, this.lineOf])
        a.copyWithin(at, base, r.end);
      this.scores.copyWithin(at, base, r.end);
      const remap = r.qids.map((q) => this.qidIndex(q));
      for (let i = at; i < at + n; i++) {
        this.qidIdx[i] = remap[this.qidIdx[i] as number] as number;
        this.lineOf[i] = (this.lineOf[i] as number) + this.lineNo;
      }
      this.runId = r.runId;
      this.arenaUsed = r.arenaEnd;
    }
    this.count = at + n;
    this.lineNo += r.lines;
  }

  finish(): TrecRun {
    const nq = this.qids.length;
    const total = this.count;
    const counts = new Int32Array(nq + 1);
    let contiguous = true;
    for (let i = 0; i < total; i++) {
      const q = this.qidIdx[i] as number;
      counts[q + 1]!++;
      if (i > 0 && q < (this.qidIdx[i - 1] as number)) contiguous = false;
    }
    for (let q = 0; q < nq; q++) counts[q + 1]! += counts[q]!;
    let { hashes, docOff, docLen, scores, lineOf } = this;
    if (!contiguous) {
      // stable counting sort by query (first-appearance order), keeping file order inside a query
      const pos = counts.slice(0, nq);
      const perm = new Int32Array(total);
      for (let i = 0; i < total; i++) perm[pos[this.qidIdx[i] as number]!++] = i;
      const p32 = (a: Int32Array): Int32Array => {
        const b = new Int32Array(total);
        for (let k = 0; k < total; k++) b[k] = a[perm[k] as number] as number;
        return b;
      };
      hashes = p32(hashes);
      docOff = p32(docOff);
      docLen = p32(docLen);
      lineOf = p32(lineOf);
      const s = new Float64Array(total);
      for (let k = 0; k < total; k++) s[k] = scores[perm[k] as number] as number;
      scores = s;
    }
    const run: TrecRun = {
      runId: this.runId,
      qids: this.qids.slice(),
      byQid: new Map(),
      lines: this.lineNo,
      scores: scores.subarray(0, total),
      hashes: hashes.subarray(0, total),
      docOff: docOff.subarray(0, total),
      docLen: docLen.subarray(0, total),
      lineOf: lineOf.subarray(0, total),
      arena: this.arena.subarray(0, this.arenaUsed),
    };
    for (let q = 0; q < nq; q++) {
      const rq: RunQuery = { qid: this.qids[q]!, start: counts[q] as number, end: counts[q + 1] as number };
      checkDuplicates(run, rq, this.label);
      run.byQid.set(rq.qid, rq);
    }
    return run;
  }
}

let dupSlots = new Int32Array(1024);

/** trec_eval refuses a docno retrieved twice for one query; so do we, naming both lines. */
function checkDuplicates(run: TrecRun, q: RunQuery, label: string): void {
  const n = q.end - q.start;
  let size = 16;
  while (size < n * 2) size <<= 1;
  if (dupSlots.length < size) dupSlots = new Int32Array(size);
  const slots = dupSlots;
  slots.fill(0, 0, size);
  const mask = size - 1;
  for (let i = q.start; i < q.end; i++) {
    let s = (run.hashes[i] as number) & mask;
    for (;;) {
      const j = (slots[s] as number) - 1;
      if (j < 0) {
        slots[s] = i + 1;
        break;
      }
      if (run.hashes[j] === run.hashes[i] && compareRunDocnos(run, i, j) === 0) {
        throw new RgateError(
          'input_invalid',
          `${label}:${run.lineOf[i]}: document ${byteStringToText(runDocno(run, i))} retrieved twice for query ${byteStringToText(q.qid)} (first at line ${run.lineOf[j]})`,
          'each (query, document) pair may appear once in a run',
        );
      }
      s = (s + 1) & mask;
    }
  }
}

/** The flat arrays a run is parsed into (shared between threads when the file is split). */
export interface RunStorage {
  qidIdx: Int32Array;
  hashes: Int32Array;
  docOff: Int32Array;
  docLen: Int32Array;
  scores: Float64Array;
  lineOf: Int32Array;
  arena: Uint8Array;
}

export interface RegionResult {
  /** absolute index one past the region's last entry */
  end: number;
  arenaEnd: number;
  /** the region's queries in first-appearance order (its entries' qidIdx index this list) */
  qids: string[];
  runId: string;
  lines: number;
}

/** A region of shared storage overflowed its estimate: parse on one thread instead. */
export class RegionFull extends Error {
  constructor() {
    super('run region full');
  }
}

/** Parse a whole run held in memory. */
export function parseRun(buf: Uint8Array, label: string): TrecRun {
  const b = new RunBuilder(label, Math.ceil(buf.length / 32), Math.ceil(buf.length / 3));
  b.feed(buf, buf.length);
  return b.finish();
}

const CHUNK = 8 << 20;
/** Runs at least this large are split in two and parsed on two threads. */
const PARALLEL_MIN_BYTES = 32 << 20;

/** Feed the lines of file bytes [start, end) to a builder, 8 MiB at a time; end must follow a newline or be EOF. */
export function feedRange(b: RunBuilder, fd: number, start: number, end: number): void {
  let buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(end - start, 1)));
  let have = 0;
  let pos = start;
  for (;;) {
    if (have === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2); // a line longer than a chunk
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const want = Math.min(buf.length - have, end - pos);
    const got = want > 0 ? readSync(fd, buf, have, want, pos) : 0;
    pos += got;
    const total = have + got;
    if (got === 0) {
      if (total > 0) b.feed(buf, total);
      return;
    }
    const lastNl = buf.lastIndexOf(NL, total - 1);
    if (lastNl < 0) {
      have = total;
      continue;
    }
    b.feed(buf, lastNl);
    have = total - (lastNl + 1);
    buf.copy(buf, 0, lastNl + 1, total);
  }
}

/** Bytes per line and docno bytes per file byte, from the file's first MiB. */
function estimateRun(fd: number, size: number): { bytesPerLine: number; docBytesPerByte: number } {
  const sample = Buffer.allocUnsafe(Math.max(1, Math.min(1 << 20, size)));
  const got = readSync(fd, sample, 0, sample.length, 0);
  let lines = 0;
  let docBytes = 0;
  let i = 0;
  while (i < got) {
    let field = 0;
    while (i < got && sample[i] !== NL) {
      while (i < got && BLANK[sample[i] as number] === 1) i++;
      const f = i;
      while (i < got && BLANK[sample[i] as number] === 0) i++;
      if (i > f && field++ === 2) docBytes += i - f;
    }
    if (i < got) lines++;
    i++;
  }
  const used = Math.max(1, Math.min(got, i));
  return {
    bytesPerLine: lines > 0 ? used / lines : 40,
    docBytesPerByte: Math.min(1, (docBytes + 1) / used),
  };
}

/**
 * Read and parse a run file. Large files are split at a line boundary near the middle and the second
 * half is parsed by a worker thread into the same shared arrays; anything unusual (no worker script,
 * an estimate too small, a worker failure) falls back to one thread, which gives the same result.
 */
export function readRunFile(path: string, opts: { threads?: 1 | 2 } = {}): TrecRun {
  const fd = openFile(path);
  try {
    const size = fstatSync(fd).size;
    const label = basename(path);
    const threads = opts.threads ?? (size >= PARALLEL_MIN_BYTES ? 2 : 1);
    if (threads === 2) {
      const url = new URL('./trec-worker.js', import.meta.url);
      if (existsSync(fileURLToPath(url))) {
        const run = readRunSplit(path, fd, size, label, url);
        if (run) return run;
      }
    }
    const est = estimateRun(fd, size);
    const b = new RunBuilder(
      label,
      Math.ceil((size / est.bytesPerLine) * 1.02) + 16,
      Math.ceil(size * est.docBytesPerByte * 1.05) + 1024,
    );
    feedRange(b, fd, 0, size);
    return b.finish();
  } finally {
    closeSync(fd);
  }
}

/** What the worker sends back (see trec-worker.ts). */
export type WorkerReply =
  | { kind: 'ok'; result: RegionResult }
  | { kind: 'full' }
  | { kind: 'input'; line: number; what: string; hint: string }
  | { kind: 'crash'; message: string };

export interface WorkerJob {
  path: string;
  label: string;
  start: number;
  end: number;
  storage: RunStorage;
  entryBase: number;
  entryLimit: number;
  arenaBase: number;
  arenaLimit: number;
  flag: Int32Array;
  port: MessagePort;
}

function readRunSplit(path: string, fd: number, size: number, label: string, url: URL): TrecRun | undefined {
  // split at the first newline after the middle
  const probe = Buffer.allocUnsafe(1 << 16);
  let mid = -1;
  for (let pos = Math.floor(size / 2); pos < size;) {
    const got = readSync(fd, probe, 0, probe.length, pos);
    if (got <= 0) break;
    const k = probe.subarray(0, got).indexOf(NL);
    if (k >= 0) {
      mid = pos + k + 1;
      break;
    }
    pos += got;
  }
  if (mid <= 0 || mid >= size) return undefined;
  const est = estimateRun(fd, size);
  const margin = 1.15;
  const l1 = Math.ceil((mid / est.bytesPerLine) * margin) + 4096;
  const l2 = Math.ceil(((size - mid) / est.bytesPerLine) * margin) + 4096;
  const a1 = Math.ceil(mid * est.docBytesPerByte * margin) + (1 << 16);
  const a2 = Math.ceil((size - mid) * est.docBytesPerByte * margin) + (1 << 16);
  const n = l1 + l2;
  const i32 = (): Int32Array => new Int32Array(new SharedArrayBuffer(4 * n));
  const storage: RunStorage = {
    qidIdx: i32(),
    hashes: i32(),
    docOff: i32(),
    docLen: i32(),
    lineOf: i32(),
    scores: new Float64Array(new SharedArrayBuffer(8 * n)),
    arena: new Uint8Array(new SharedArrayBuffer(a1 + a2)),
  };
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const job: WorkerJob = {
    path,
    label,
    start: mid,
    end: size,
    storage,
    entryBase: l1,
    entryLimit: n,
    arenaBase: a1,
    arenaLimit: a1 + a2,
    flag,
    port: port2,
  };
  // execArgv: [] so flags like `-e` or `--input-type` of the parent never reach the worker
  const worker = new Worker(url, { workerData: job, transferList: [port2], execArgv: [] });
  worker.unref();
  const main = new RunBuilder(label, 0, 0, {
    storage,
    entryBase: 0,
    entryLimit: l1,
    arenaBase: 0,
    arenaLimit: a1,
  });
  let mainError: unknown;
  try {
    feedRange(main, fd, 0, mid);
  } catch (e) {
    mainError = e;
  }
  // flag: 0 = not started, 1 = running, 2 = reply posted. A worker that has not started within 10 s
  // (or does not finish within 2 min) is abandoned and the run is parsed on one thread instead.
  if (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 10_000);
  if (Atomics.load(flag, 0) === 1) Atomics.wait(flag, 0, 1, 120_000);
  const reply =
    Atomics.load(flag, 0) === 2
      ? (receiveMessageOnPort(port1)?.message as WorkerReply | undefined)
      : undefined;
  port1.close();
  void worker.terminate();
  if (mainError instanceof RegionFull) return undefined;
  if (mainError) throw mainError; // earlier lines: this is the file's first error
  if (!reply || reply.kind === 'full' || reply.kind === 'crash') return undefined;
  if (reply.kind === 'input') throw inputError(label, main.lineNo + reply.line, reply.what, reply.hint);
  main.absorb(l1, reply.result);
  return main.finish();
}

export function readQrelsFile(path: string, docs: DocTable = new DocTable()): Qrels {
  const fd = openFile(path);
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const got = readSync(fd, buf, off, size - off, null);
      if (got === 0) break;
      off += got;
    }
    return parseQrels(buf.subarray(0, off), basename(path), docs);
  } finally {
    closeSync(fd);
  }
}

function openFile(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT')
      throw new RgateError('file_not_found', `${path}: no such file`, 'check the path');
    if (err.code === 'EISDIR')
      throw new RgateError('input_invalid', `${path}: is a directory, expected a file`);
    throw e;
  }
}

export interface RunRow {
  qid: string;
  docno: string;
  rank: number;
  score: number;
}

/**
 * Write a TREC run (`qid Q0 docno rank score runid`). Scores are written with JavaScript's shortest
 * round-trip form, so reading the file back gives the same doubles and trec_eval sorts them identically.
 */
export function writeRun(rows: readonly RunRow[], runId: string): string {
  if (/\s/.test(runId) || runId.length === 0) {
    throw new RgateError('usage', `run id "${runId}" must be non-empty and contain no whitespace`);
  }
  let out = '';
  for (const r of rows) {
    if (/\s/.test(r.qid) || /\s/.test(r.docno) || !r.qid || !r.docno) {
      throw new RgateError(
        'input_invalid',
        `cannot write a TREC run line for query "${r.qid}", document "${r.docno}": ids must be non-empty without whitespace`,
      );
    }
    if (!Number.isFinite(r.score)) {
      throw new RgateError(
        'input_invalid',
        `query ${r.qid} document ${r.docno}: score ${r.score} is not finite`,
      );
    }
    out += `${r.qid} Q0 ${r.docno} ${r.rank} ${r.score} ${runId}\n`;
  }
  return out;
}

/**
 * Build a run from rows in memory (rgate's own observations), as if they had been read from a file
 * written by writeRun: the same docno bytes (UTF-8) and the same doubles.
 */
export function runFromRows(
  rows: readonly { qid: string; docno: string; score: number }[],
  runId: string,
): TrecRun {
  const b = new RunBuilder('(observations)', rows.length + 1, 1024);
  for (const r of rows) b.add(textToByteString(r.qid), Buffer.from(r.docno, 'utf8'), r.score);
  b.runId = runId;
  return b.finish();
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
