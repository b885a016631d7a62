/**
 * A large run that is not grouped by query (shuffled), read without holding it as it was parsed:
 * the parser (RunBuilder) fills buffers a few chunks large that are reused, and their results are
 * moved from them into the run's store grouped by query, a segment per query and move. A query's
 * results are its segments in file order, gathered into small reused arrays when it is measured.
 * The store keeps what measuring needs, a record per result: score, docno hash, length (a byte)
 * and bytes; not each result's query (the segments say it) nor its line (only a duplicate's error
 * names lines, and then the run is read again the ordinary way for it). Writing fresh memory costs
 * ~3.5 ms of CPU a MiB on this kind of machine (page faults), and holding the parsed arrays whole
 * and grouping them at the end wrote 44 bytes a result (plus the docno), this 13 (separate arrays
 * with an offset and a 4-byte length: 20). A record's docno sits beside its score, so the judge's
 * byte comparisons find it in cache after gather read the score (separate arrays: a cache miss
 * each, ~40 ms of a 3.5M-result run).
 */
import { FNV1A_BASIS, fnv1aStep } from '../core/fnv1a.js';
import { readSample, type ChunkSink } from './run-chunks.js';
import type { RunQuery, TrecRun } from './run.js';
import { checkDuplicates } from './run-duplicates.js';
import type { RunBuilder } from './run-parse.js';
import { RegionFull } from './run-storage.js';
import { grow32 } from './grow.js';

/**
 * What a segmented run keeps (shared between threads when the file is split): each result as a
 * record, score (float64), docno hash (int32), docno length (a byte) and docno bytes, unaligned,
 * little-endian; a segment's records one after the other.
 */
export interface SegmentStore {
  bytes: Uint8Array;
}

/** A record's bytes before its docno. */
export const RECORD_HEAD = 13;

/**
 * The builder's results are moved to the store once it holds this many (or this many docno bytes):
 * a few chunks at a time, so that a query has fewer, longer segments to gather.
 */
export const TAKE_ENTRIES = 1 << 16;
const TAKE_ARENA_BYTES = 1 << 20;

/** The most bytes a SegmentStore holds (its segments' starts are int32). */
export const MAX_STORE_BYTES = 0x7fffffff;

/** The longest docno a SegmentStore holds (a longer one and the run is read whole). */
export const MAX_DOC_LEN = 255;

/**
 * Segments pay when they hold a few results each: a run with many queries and few results each
 * leaves ~1 result per query and chunk, and gathering a query from that many segments cost more than
 * grouping the run whole (shuffled, 200,000 queries of 20 results: 7.0 -> 8.6 s of CPU; 20,000 of
 * 200: 3.8 -> 4.4 s; 7,000 of 600, about 4 results per query in the first MiB: CPU within the
 * noise, 70 MiB less peak).
 */
const MIN_RESULTS_PER_QUERY = 4;

/**
 * Does the file's first MiB hold at least MIN_RESULTS_PER_QUERY results per query it names? (qids
 * counted by their FNV-1a hash: a collision only makes the count smaller.)
 */
export function segmentsPay(fd: number, size: number, sample: Uint8Array = readSample(fd, size)): boolean {
  const got = sample.length;
  const qids = new Set<number>();
  let lines = 0;
  let i = 0;
  while (i < got) {
    while (i < got && (sample[i] === 32 || sample[i] === 9 || sample[i] === 13)) i++;
    if (i < got && sample[i] !== 10 && sample[i] !== 35 /* # */) {
      let h = FNV1A_BASIS;
      for (; i < got && sample[i]! > 32; i++) h = fnv1aStep(h, sample[i]!);
      qids.add(h);
      lines++;
    }
    while (i < got && sample[i] !== 10) i++;
    i++;
  }
  return lines >= MIN_RESULTS_PER_QUERY * qids.size;
}

/** The segments a thread recorded, in the order made (what a worker sends back). */
export interface SegmentList {
  /** query (the recording thread's first-appearance number), first record's byte and results, per segment */
  q: Int32Array;
  start: Int32Array;
  len: Int32Array;
  count: number;
}

/** Part of a store a thread may fill: bytes [base, limit). */
export interface StoreRegion {
  base: number;
  limit: number;
}

/**
 * A chunk sink: the builder parses chunks, then their results move to the store grouped by query
 * and the builder's buffers are emptied for the next ones. With a region, overflowing it throws
 * RegionFull (the caller reads the file on one thread instead); without one the store grows.
 */
export class ChunkGrouper implements ChunkSink {
  private segQ: Int32Array = new Int32Array(1 << 12);
  private segStart: Int32Array = new Int32Array(1 << 12);
  private segLen: Int32Array = new Int32Array(1 << 12);
  private segCount = 0;
  /** per query: its results in the chunk (zero between chunks) */
  private perQ: Int32Array = new Int32Array(1 << 10);
  /** per query: its records' bytes in the chunk, then where its next record goes (zero between) */
  private perQBytes: Int32Array = new Int32Array(1 << 10);
  /** the chunk's queries in order of first appearance in it */
  private seen: Int32Array = new Int32Array(1 << 10);
  private used: number;
  private limit: number;
  private view: DataView;

  constructor(
    private readonly b: RunBuilder,
    public store: SegmentStore,
    private readonly region?: StoreRegion,
    /** the store's byte limit (MAX_STORE_BYTES; smaller in a test) */
    private readonly maxBytes = MAX_STORE_BYTES,
  ) {
    this.used = region?.base ?? 0;
    this.limit = region?.limit ?? store.bytes.length;
    this.view = dataView(store.bytes);
  }

  feed(buf: Uint8Array, end: number): void {
    const b = this.b;
    b.feed(buf, end);
    if (b.entries >= TAKE_ENTRIES || b.arenaBytes >= TAKE_ARENA_BYTES) this.take();
  }

  /** Move what the builder still holds to the store (after the last feed). */
  flush(): void {
    this.take();
  }

  /** Move the builder's results to the store, grouped by query, and empty the builder. */
  private take(): void {
    const b = this.b;
    const n = b.entries;
    if (n === 0) return;
    const src = b.entryArrays();
    const chunkArena = b.entriesView().arena;
    const { qidIdx, docLen: l } = src;
    let perQ = this.perQ;
    let perQBytes = this.perQBytes;
    let seen = this.seen;
    let nSeen = 0;
    let longest = 0;
    for (let i = 0; i < n; i++) {
      const q = qidIdx[i] as number;
      if (q >= perQ.length) {
        const size = Math.max(q + 1, perQ.length * 2);
        perQ = this.perQ = grow32(perQ, size);
        perQBytes = this.perQBytes = grow32(perQBytes, size);
      }
      if (perQ[q] === 0) {
        if (nSeen === seen.length) seen = this.seen = grow32(seen, seen.length * 2);
        seen[nSeen++] = q;
      }
      perQ[q]!++;
      const len = l[i] as number;
      perQBytes[q]! += RECORD_HEAD + len;
      longest |= len;
    }
    // the length is a byte: a longer docno (a URL?) and the file is read whole instead
    if (longest > MAX_DOC_LEN) throw new RegionFull();
    this.room(n * RECORD_HEAD + b.arenaBytes);
    this.record(nSeen);
    const bytes = this.store.bytes;
    const view = this.view;
    const { hashes: h, docOff: o, scores: sc } = src;
    // each result to its query's next record (stable: file order inside a query)
    for (let i = 0; i < n; i++) {
      const q = qidIdx[i] as number;
      let a = perQBytes[q] as number;
      const len = l[i] as number;
      perQBytes[q] = a + RECORD_HEAD + len;
      view.setFloat64(a, sc[i] as number, true);
      view.setInt32(a + 8, h[i] as number, true);
      bytes[a + 12] = len;
      a += RECORD_HEAD;
      const from = o[i] as number;
      // a docno is a few bytes: a loop beats set()'s subarray
      for (let k = from; k < from + len; k++) bytes[a++] = chunkArena[k] as number;
    }
    for (let k = 0; k < nSeen; k++) {
      perQ[seen[k] as number] = 0;
      perQBytes[seen[k] as number] = 0;
    }
    b.dropBefore(n);
  }

  /**
   * A segment for each of the chunk's nSeen queries (perQ, perQBytes: its results and record
   * bytes); perQBytes then holds where its next record goes.
   */
  private record(nSeen: number): void {
    const { perQ, perQBytes, seen } = this;
    if (this.segCount + nSeen > this.segQ.length) {
      const size = Math.max(this.segCount + nSeen, this.segQ.length * 2);
      this.segQ = grow32(this.segQ, size);
      this.segStart = grow32(this.segStart, size);
      this.segLen = grow32(this.segLen, size);
    }
    let at = this.used;
    for (let k = 0; k < nSeen; k++) {
      const q = seen[k] as number;
      const s = this.segCount++;
      this.segQ[s] = q;
      this.segStart[s] = at;
      this.segLen[s] = perQ[q] as number;
      const bytes = perQBytes[q] as number;
      perQBytes[q] = at;
      at += bytes;
    }
    this.used = at;
  }

  private room(bytes: number): void {
    // segments start at int32 byte offsets: a store past 2 GiB (~100M results) and the run is read
    // whole instead, as for a long docno
    if (this.used + bytes > this.maxBytes) throw new RegionFull();
    if (this.used + bytes <= this.limit) return;
    if (this.region) throw new RegionFull();
    const size = Math.max(this.used + bytes, Math.ceil(this.limit * 1.5));
    const a = new Uint8Array(size);
    a.set(this.store.bytes.subarray(0, this.used));
    this.store = { bytes: a };
    this.view = dataView(a);
    this.limit = size;
  }

  /** The segments recorded so far. */
  segments(): SegmentList {
    const n = this.segCount;
    return {
      q: this.segQ.subarray(0, n),
      start: this.segStart.subarray(0, n),
      len: this.segLen.subarray(0, n),
      count: n,
    };
  }
}

function dataView(a: Uint8Array): DataView {
  return new DataView(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * A run held as segments: every query's results, gathered one query at a time (the arrays of the
 * TrecRun handed out are reused by the next gather).
 */
export class SegmentedRun {
  readonly byQid = new Map<string, number>();
  private readonly head: Int32Array;
  private readonly next: Int32Array;
  private readonly start: Int32Array;
  private readonly len: Int32Array;
  private readonly view: TrecRun;
  private readonly data: DataView;

  /**
   * `lists` in file order, each with its own query numbering: `remaps[i][q]` is list i's query q
   * in `qids`' numbering (undefined: the same). `duplicateError` reads the run again the ordinary
   * way and throws its error (which names the lines this store does not keep).
   */
  constructor(
    readonly runId: string,
    readonly qids: string[],
    readonly lines: number,
    private readonly store: SegmentStore,
    lists: readonly SegmentList[],
    remaps: readonly (Int32Array | undefined)[],
    private readonly duplicateError: (found: unknown) => never,
  ) {
    qids.forEach((qid, q) => this.byQid.set(qid, q));
    const nq = qids.length;
    let total = 0;
    for (const l of lists) total += l.count;
    this.head = new Int32Array(nq).fill(-1);
    const size = new Int32Array(nq);
    this.next = new Int32Array(total).fill(-1);
    this.start = new Int32Array(total);
    this.len = new Int32Array(total);
    const tail = new Int32Array(nq).fill(-1);
    let s = 0;
    lists.forEach((l, li) => {
      const remap = remaps[li];
      for (let k = 0; k < l.count; k++, s++) {
        const own = l.q[k] as number;
        const q = remap ? (remap[own] as number) : own;
        this.start[s] = l.start[k] as number;
        this.len[s] = l.len[k] as number;
        size[q]! += l.len[k] as number;
        const t = tail[q] as number;
        if (t < 0) this.head[q] = s;
        else this.next[t] = s;
        tail[q] = s;
      }
    });
    let most = 0;
    for (let q = 0; q < nq; q++) most = Math.max(most, size[q] as number);
    this.view = {
      runId,
      qids: [],
      byQid: new Map(),
      lines,
      scores: new Float64Array(most),
      hashes: new Int32Array(most),
      docOff: new Int32Array(most),
      docLen: new Int32Array(most),
      // lines are not kept (duplicateError reads the run again for them)
      lineOf: new Int32Array(most),
      arena: store.bytes,
    };
    this.data = dataView(store.bytes);
  }

  /** Query q's results, in file order, as entries [0, n) of a run valid until the next gather. */
  gather(q: number): { run: TrecRun; rq: RunQuery } {
    const v = this.view;
    const bytes = this.store.bytes;
    const data = this.data;
    const { scores, hashes, docOff, docLen } = v;
    let n = 0;
    for (let s = this.head[q] as number; s >= 0; s = this.next[s] as number) {
      let a = this.start[s] as number;
      for (const to = n + (this.len[s] as number); n < to; n++) {
        scores[n] = data.getFloat64(a, true);
        hashes[n] = data.getInt32(a + 8, true);
        const len = bytes[a + 12] as number;
        // the docno stays in its record
        docOff[n] = a + RECORD_HEAD;
        docLen[n] = len;
        a += RECORD_HEAD + len;
      }
    }
    return { run: v, rq: { qid: this.qids[q]!, start: 0, end: n } };
  }

  /**
   * Hand every query to `onQuery` in order of first appearance, each after the duplicate check
   * reading the run whole makes (its error is the first query, in that order, retrieving a docno
   * twice).
   */
  forEachQuery(label: string, onQuery: (run: TrecRun, rq: RunQuery) => void): void {
    for (let q = 0; q < this.qids.length; q++) {
      const { run, rq } = this.gather(q);
      try {
        checkDuplicates(run, rq, label);
      } catch (e) {
        this.duplicateError(e);
      }
      onQuery(run, rq);
    }
  }
}
