/**
 * The run parser: each line's bytes are scanned once, the docno hashed and copied into an arena while
 * scanning (no string is made for it), the score parsed from its digits (index.ts says why). A
 * RunBuilder fills growable arrays, or a fixed region of storage it shares with a worker thread
 * (run-read.ts splits large files in two); run-chunks.ts hands it a file's lines a chunk at a time,
 * qid-table.ts numbers its queries, run-duplicates.ts refuses a docno retrieved twice.
 */
import { FNV1A_BASIS, fnv1aStep } from '../core/fnv1a.js';
import * as bytes from './bytes.js';
import { hashBytes, latin1, parseDecimal, sameBytes } from './bytes.js';
import { inputError } from './input.js';
import { QidTable } from './qid-table.js';
import type { RunQuery, TrecRun } from './run.js';
import { checkDuplicates, duplicateError } from './run-duplicates.js';
import { groupRun, scanRun, type Grouped } from './run-scan.js';
import { grow32 } from './grow.js';
import { RegionFull, type RegionResult, type RunStorage } from './run-storage.js';

// feed() reads these per byte. A binding that is imported, or exported, is read through a module
// cell with a check that it is initialised at every use, while a module-local constant is folded
// into the compiled loop: these copies (and BLANK not being exported) keep feed() as fast as when
// the parser shared one file with them, about 10% of its time on a 4-million-line run.
const { SP, TAB, NL, CR } = bytes;
const POW10_22 = bytes.POWERS_OF_TEN;

/** Byte classes for the run scanner: 1 = blank (C isspace minus newline), 2 = newline, 0 = field byte. */
const BLANK = new Uint8Array(256);
for (const b of [SP, TAB, CR, 11, 12]) BLANK[b] = 1;
BLANK[NL] = 2;

/**
 * Chunks this large go to the WebAssembly scanner first; below it feed() alone is quicker, above it
 * (a whole large run parsed in memory) the scanner's memory would be several times the input.
 */
const SCAN_MIN_BYTES = 1 << 16;
const SCAN_MAX_BYTES = 8 << 20;
const SCAN_TABLES = { blank: BLANK, powersOfTen: POW10_22 };
/** Runs of this many entries (up to about 70 MB of scanner memory) are grouped by the scanner. */
const SCAN_GROUP_MIN = 4096;
const SCAN_GROUP_MAX = 1 << 20;

const RUN_HINT =
  'a run line is: <qid> Q0 <docno> <rank> <score> <run-id>, e.g. "301 Q0 FBIS3-10 1 12.5 myrun"';

/** trec_eval reads a score with atof; rgate takes a finite decimal number only (parseDecimal). */
const SCORE_HINT =
  'a score is a finite decimal number such as 12.5, -3, .5 or 1.2e-5 (trec_eval reads it with atof: "12.5abc" as 12.5, "x" as 0, "nan", "inf" and "1e400" as not finite; rgate refuses them)';

/** Why a score field parseDecimal refused is not one (the error path only). */
function scoreProblem(text: string): string {
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) {
    return `score "${text}" is out of range: beyond the largest double (about 1.8e308)`;
  }
  return /^[+-]?(?:inf|infinity|nan)$/i.test(text)
    ? `score "${text}" is not a finite number`
    : `score "${text}" is not a number`;
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
  private readonly qidTable = new QidTable();
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
   * Parse every line of buf[0, end); end must follow a newline or be the end of the file.
   * Long because: this loop is the whole cost of reading a large run when the WebAssembly scanner
   * does not, so it keeps the arrays, the cursor and the hashes in locals in one function; a call
   * per field would hand them back and forth through `this` for every byte it reads.
   */
  feed(buf: Uint8Array, end: number): void {
    // the WebAssembly scanner first (see run-scan.ts), on either thread of a split file
    if (end >= SCAN_MIN_BYTES && end <= SCAN_MAX_BYTES && this.feedScanned(buf, end)) return;
    let i = 0;
    let c = 0;
    let arena = this.arena;
    let arenaLimit = this.arenaLimit;
    let hashes = this.hashes;
    let docOff = this.docOff;
    let docLen = this.docLen;
    let scores = this.scores;
    let lineOf = this.lineOf;
    let qidIdx = this.qidIdx;
    let entryLimit = this.entryLimit;
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
      if (c === 35 /* # */) {
        // a comment line, as trec_eval 10 skips them (after optional blanks)
        while (i < end && buf[i] !== NL) i++;
        i++;
        continue;
      }
      const qs = i;
      let qh = FNV1A_BASIS;
      while (i < end && BLANK[(c = buf[i] as number)] === 0) {
        qh = fnv1aStep(qh, c);
        i++;
      }
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
      let h = FNV1A_BASIS;
      if (fields === 2 && i < end && c !== NL) {
        fields++;
        while (i < end && BLANK[(c = buf[i] as number)] === 0) {
          h = fnv1aStep(h, c);
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
        this.fail(scoreProblem(latin1(buf, ss, se)), SCORE_HINT);
      }
      if (n >= entryLimit) {
        // one compare a line instead of counting the chunk's lines first (a cold start pays for that loop)
        this.count = n;
        this.grow();
        ({ hashes, docOff, docLen, scores, lineOf, qidIdx, entryLimit } = this);
      }
      qidIdx[n] = this.qidTable.indexOfBytes(buf, qs, qe, qh);
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

  /**
   * The chunk as the WebAssembly scanner read it, stored as feed() would store it; false (and nothing
   * stored) when feed() must read it: a line it reports, a score that is not a number.
   */
  private feedScanned(buf: Uint8Array, end: number): boolean {
    const r = scanRun(buf, end, SCAN_TABLES);
    if (!r) return false;
    const { n, slow, scores } = r;
    for (let k = 0; k < slow.length; k += 3) {
      const v = parseDecimal(buf, slow[k + 1] as number, slow[k + 2] as number);
      if (Number.isNaN(v)) return false;
      scores[slow[k] as number] = v;
    }
    if (this.count + n > this.entryLimit) this.grow(this.count + n);
    if (this.arenaUsed + r.arena.length > this.arenaLimit) this.ensureArena(this.arenaUsed + r.arena.length);
    const base = this.count;
    const o = this.arenaUsed;
    const lineBase = this.lineNo;
    // the chunk's qids (a few) interned here, in first-appearance order as feed() would
    const { qids } = r;
    const map = new Int32Array(qids.length / 3);
    for (let l = 0; l < map.length; l++) {
      map[l] = this.qidTable.indexOfBytes(
        buf,
        qids[3 * l] as number,
        qids[3 * l + 1] as number,
        qids[3 * l + 2] as number,
      );
    }
    r.finalize(map, o, lineBase);
    this.qidIdx.set(r.qidIdx, base);
    this.docOff.set(r.dOff, base);
    this.lineOf.set(r.line, base);
    this.hashes.set(r.h, base);
    this.docLen.set(r.dLen, base);
    this.scores.set(scores, base);
    this.arena.set(r.arena, o);
    this.count = base + n;
    this.arenaUsed = o + r.arena.length;
    this.lineNo = lineBase + r.lines;
    // the run id of the last line wins (trec_eval)
    if (n > 0 && !sameBytes(buf, r.rs, r.re, this.runId)) this.runId = latin1(buf, r.rs, r.re);
    return true;
  }

  /** The query (first-appearance number, see qids) of stored entry i. */
  qidOf(i: number): number {
    return this.qidIdx[i] as number;
  }

  /** The qids seen so far, by first-appearance number. */
  get qids(): readonly string[] {
    return this.qidTable.qids;
  }

  /**
   * The entries stored so far as a run's arrays (no queries): valid until the next feed() or
   * dropBefore(), which may move them.
   */
  entriesView(): TrecRun {
    const { scores, hashes, docOff, docLen, lineOf, arena } = this;
    return {
      runId: this.runId,
      qids: [],
      byQid: new Map(),
      lines: this.lineNo,
      scores,
      hashes,
      docOff,
      docLen,
      lineOf,
      arena,
    };
  }

  /**
   * Forget entries [0, first) and their docno bytes: the rest move to the front (a run read query by
   * query keeps only the query still open, so its arrays stay a chunk's size). Growable builders only.
   */
  dropBefore(first: number): void {
    if (first === 0) return;
    const n = this.count - first;
    const { qidIdx, hashes, docOff, docLen, lineOf, scores, arena } = this;
    // docnos are stored in entry order: the kept entries' bytes are one range at the arena's end
    const from = n > 0 ? (docOff[first] as number) : this.arenaUsed;
    for (const a of [qidIdx, hashes, docOff, docLen, lineOf]) a.copyWithin(0, first, this.count);
    scores.copyWithin(0, first, this.count);
    arena.copyWithin(0, from, this.arenaUsed);
    for (let i = 0; i < n; i++) docOff[i] = (docOff[i] as number) - from;
    this.arenaUsed -= from;
    this.count = n;
  }

  /** Add one entry directly (in-memory runs); qid is a byte string, docno its bytes. */
  add(qid: string, docno: Uint8Array, score: number): void {
    if (this.count + 1 > this.scores.length) this.grow();
    if (this.arenaUsed + docno.length > this.arena.length)
      this.reserveArena(this.arena.length * 2 + docno.length);
    const q = this.qidTable.indexOf(qid);
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

  private fail(what: string, hint = RUN_HINT): never {
    // line and what travel separately so a worker's error can be renumbered by the main thread
    throw Object.assign(inputError(this.label, this.lineNo, what, hint), { line: this.lineNo, what });
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

  private grow(atLeast = 0): void {
    if (this.fixed) throw new RegionFull();
    const n = Math.max(this.scores.length * 2, atLeast);
    this.qidIdx = grow32(this.qidIdx, n);
    this.hashes = grow32(this.hashes, n);
    this.docOff = grow32(this.docOff, n);
    this.docLen = grow32(this.docLen, n);
    this.lineOf = grow32(this.lineOf, n);
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
      qids: this.qidTable.qids.slice(),
      runId: this.runId,
      lines: this.lineNo,
    };
  }

  /**
   * Take another region's entries (parsed by a worker into the same shared storage at [base, r.end))
   * as following this builder's: renumber their queries into this builder's first-appearance order
   * and shift their line numbers by the lines this builder read. They stay where they are: finish()
   * reads both ranges (and moves them only when the run was already grouped by query).
   */
  absorb(base: number, r: RegionResult): void {
    const remap = Int32Array.from(r.qids, (q) => this.qidTable.indexOf(q));
    const shift = this.lineNo;
    for (let i = base; i < r.end; i++) {
      this.qidIdx[i] = remap[this.qidIdx[i] as number] as number;
      this.lineOf[i] = (this.lineOf[i] as number) + shift;
    }
    if (r.end > base) {
      this.runId = r.runId;
      this.arenaUsed = r.arenaEnd;
    }
    this.tailBase = base;
    this.tailEnd = r.end;
    this.lineNo += r.lines;
  }

  /** Entries [tailBase, tailEnd) follow [0, count) (absorb); empty when there is one range. */
  private tailBase = 0;
  private tailEnd = 0;

  finish(): TrecRun {
    const nq = this.qidTable.size;
    const head = this.count;
    const { tailBase, tailEnd, qidIdx } = this;
    const total = head + (tailEnd - tailBase);
    // one range (no second thread's half), large enough: grouped and checked by the scanner
    if (tailEnd === tailBase && total >= SCAN_GROUP_MIN && total <= SCAN_GROUP_MAX) {
      const g = groupRun(
        total,
        nq,
        { ...this.entryArrays(), arena: this.arena.subarray(0, this.arenaUsed) },
        SCAN_TABLES,
      );
      if (g) return this.finishGrouped(total, g);
    }
    const counts = new Int32Array(nq + 1);
    let contiguous = true;
    let prev = -1;
    for (const [from, to] of [
      [0, head],
      [tailBase, tailEnd],
    ] as const) {
      for (let i = from; i < to; i++) {
        const q = qidIdx[i] as number;
        counts[q + 1]!++;
        if (q < prev) contiguous = false;
        prev = q;
      }
    }
    for (let q = 0; q < nq; q++) counts[q + 1]! += counts[q]!;
    let { hashes, docOff, docLen, scores, lineOf } = this;
    if (contiguous) {
      if (tailEnd > tailBase && tailBase !== head) {
        for (const a of [qidIdx, hashes, docOff, docLen, lineOf]) a.copyWithin(head, tailBase, tailEnd);
        scores.copyWithin(head, tailBase, tailEnd);
      }
    } else {
      // stable counting sort by query (first-appearance order), keeping file order inside a query:
      // each array scattered to its queries' next slots (a few thousand write streams, read
      // sequentially), one array at a time so that each lands in the memory of an array already
      // moved: only the scores take fresh memory (writing fresh pages, about 4 ms of CPU a MiB here,
      // was most of the cost of grouping a shuffled 7-million-line run into five new arrays)
      const ranges = [
        [0, head],
        [tailBase, tailEnd],
      ] as const;
      const pos = new Int32Array(nq);
      const scatter32 = (src: Int32Array, dst: Int32Array): Int32Array => {
        pos.set(counts.subarray(0, nq));
        for (const [from, to] of ranges)
          for (let i = from; i < to; i++) dst[pos[qidIdx[i] as number]!++] = src[i] as number;
        return dst;
      };
      const s2 = new Float64Array(total);
      pos.set(counts.subarray(0, nq));
      for (const [from, to] of ranges)
        for (let i = from; i < to; i++) s2[pos[qidIdx[i] as number]!++] = scores[i] as number;
      // the scores' 8 bytes an entry hold the hashes and the offsets, the hashes' the lengths...
      const free = (a: Int32Array | Float64Array, at: number): Int32Array =>
        new Int32Array(a.buffer, a.byteOffset + 4 * at, total);
      const h2 = scatter32(hashes, free(scores, 0));
      const o2 = scatter32(docOff, free(scores, total));
      const l2 = scatter32(docLen, free(hashes, 0));
      const n2 = scatter32(lineOf, free(docOff, 0));
      hashes = h2;
      docOff = o2;
      docLen = l2;
      lineOf = n2;
      scores = s2;
    }
    const run: TrecRun = {
      runId: this.runId,
      qids: this.qidTable.qids.slice(),
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
      const rq: RunQuery = {
        qid: this.qidTable.qids[q]!,
        start: counts[q] as number,
        end: counts[q + 1] as number,
      };
      checkDuplicates(run, rq, this.label);
      run.byQid.set(rq.qid, rq);
    }
    return run;
  }

  entryArrays(): Omit<RunStorage, 'arena'> {
    const { qidIdx, hashes, docOff, docLen, lineOf, scores } = this;
    return { qidIdx, hashes, docOff, docLen, lineOf, scores };
  }

  /** finish() from the scanner's grouping: the same run, the same duplicate error. */
  private finishGrouped(total: number, g: Grouped): TrecRun {
    const a = g.arrays ?? this.entryArrays();
    const run: TrecRun = {
      runId: this.runId,
      qids: this.qidTable.qids.slice(),
      byQid: new Map(),
      lines: this.lineNo,
      scores: a.scores.subarray(0, total),
      hashes: a.hashes.subarray(0, total),
      docOff: a.docOff.subarray(0, total),
      docLen: a.docLen.subarray(0, total),
      lineOf: a.lineOf.subarray(0, total),
      arena: this.arena.subarray(0, this.arenaUsed),
    };
    const { counts } = g;
    for (let q = 0; q < this.qidTable.size; q++) {
      const rq: RunQuery = {
        qid: this.qidTable.qids[q]!,
        start: counts[q] as number,
        end: counts[q + 1] as number,
      };
      if (g.duplicate && g.duplicate[0] >= rq.start && g.duplicate[0] < rq.end) {
        throw duplicateError(run, rq, g.duplicate[0], g.duplicate[1], this.label);
      }
      run.byQid.set(rq.qid, rq);
    }
    return run;
  }
}
