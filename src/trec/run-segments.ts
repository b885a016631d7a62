/**
 * A large run that is not grouped by query (shuffled), read without holding it as it was parsed:
 * the parser (RunBuilder) fills buffers a chunk large that are reused for every chunk, and each
 * chunk's results are moved from them into the run's store grouped by query, a segment per query
 * and chunk. A query's results are its segments in file order, gathered into small reused arrays
 * when it is measured. The store keeps what measuring needs: score, docno hash, length (a byte)
 * and bytes, the docnos in the results' order so that a segment's start and the lengths locate
 * each; not each result's query (the segments say it) nor its line (only a duplicate's error names
 * lines, and then the run is read again the ordinary way for it). Writing fresh memory costs ~3.5
 * ms of CPU a MiB on this kind of machine (page faults), and holding the parsed arrays whole and
 * grouping them at the end wrote 44 bytes a result (plus the docno), this 13 (an offset and a
 * 4-byte length made it 20).
 */
import { readSync } from 'node:fs';
import { FNV1A_BASIS, fnv1aStep } from '../core/fnv1a.js';
import type { ChunkSink } from './run-chunks.js';
import type { RunQuery, TrecRun } from './run.js';
import { checkDuplicates } from './run-duplicates.js';
import type { RunBuilder } from './run-parse.js';
import { RegionFull } from './run-storage.js';
import { grow32 } from './grow.js';

/** What a segmented run keeps of each result (shared between threads when the file is split). */
export interface SegmentStore {
  scores: Float64Array;
  hashes: Int32Array;
  /** a byte each (MAX_DOC_LEN): a docno's offset is its segment's plus the lengths before it */
  docLen: Uint8Array;
  /** docnos in the entries' order, so grouped by query as they are */
  arena: Uint8Array;
}

/**
 * The builder's results are moved to the store once it holds this many (or this many docno bytes):
 * a few chunks at a time, so that a query has fewer, longer segments to gather.
 */
export const TAKE_ENTRIES = 1 << 16;
const TAKE_ARENA_BYTES = 1 << 20;

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
export function segmentsPay(fd: number, size: number): boolean {
  const sample = Buffer.allocUnsafe(Math.max(1, Math.min(1 << 20, size)));
  const got = readSync(fd, sample, 0, sample.length, 0);
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
  /** query (the recording thread's first-appearance number), first entry and length per segment */
  q: Int32Array;
  start: Int32Array;
  len: Int32Array;
  /** the arena offset of the segment's first docno */
  arena: Int32Array;
  count: number;
}

/** Part of a store a thread may fill: entries [entryBase, entryLimit), arena [arenaBase, arenaLimit). */
export interface StoreRegion {
  entryBase: number;
  entryLimit: number;
  arenaBase: number;
  arenaLimit: number;
}

/**
 * A chunk sink: the builder parses each chunk, then its results move to the store grouped by query
 * and the builder's buffers are emptied for the next chunk. With a region, overflowing it throws
 * RegionFull (the caller reads the file on one thread instead); without one the store grows.
 */
export class ChunkGrouper implements ChunkSink {
  private segQ: Int32Array = new Int32Array(1 << 12);
  private segStart: Int32Array = new Int32Array(1 << 12);
  private segLen: Int32Array = new Int32Array(1 << 12);
  private segArena: Int32Array = new Int32Array(1 << 12);
  private segCount = 0;
  /** per query: its results in the chunk, then its next slot (zero between chunks) */
  private perQ: Int32Array = new Int32Array(1 << 10);
  /** per query: its docno bytes in the chunk, then where its next docno goes (zero between chunks) */
  private perQBytes: Int32Array = new Int32Array(1 << 10);
  /** the chunk's queries in order of first appearance in it */
  private seen: Int32Array = new Int32Array(1 << 10);
  private count: number;
  private arenaUsed: number;
  private entryLimit: number;
  private arenaLimit: number;

  constructor(
    private readonly b: RunBuilder,
    public store: SegmentStore,
    private readonly region?: StoreRegion,
  ) {
    this.count = region?.entryBase ?? 0;
    this.arenaUsed = region?.arenaBase ?? 0;
    this.entryLimit = region?.entryLimit ?? store.scores.length;
    this.arenaLimit = region?.arenaLimit ?? store.arena.length;
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
    this.room(n, b.arenaBytes);
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
      perQBytes[q]! += len;
      longest |= len;
    }
    // docLen is a byte: a longer docno (a URL?) and the file is read whole instead
    if (longest > MAX_DOC_LEN) throw new RegionFull();
    this.record(nSeen);
    const { scores, hashes, docLen, arena } = this.store;
    const { hashes: h, docOff: o, scores: sc } = src;
    // each result to its query's next slot and its docno to its query's next bytes (stable: file
    // order inside a query)
    for (let i = 0; i < n; i++) {
      const q = qidIdx[i] as number;
      const d = perQ[q]!++;
      scores[d] = sc[i] as number;
      hashes[d] = h[i] as number;
      const len = l[i] as number;
      docLen[d] = len;
      const from = o[i] as number;
      let a = perQBytes[q] as number;
      perQBytes[q] = a + len;
      // a docno is a few bytes: a loop beats set()'s subarray
      for (let k = from; k < from + len; k++) arena[a++] = chunkArena[k] as number;
    }
    for (let k = 0; k < nSeen; k++) {
      perQ[seen[k] as number] = 0;
      perQBytes[seen[k] as number] = 0;
    }
    b.dropBefore(n);
  }

  /**
   * A segment for each of the chunk's nSeen queries (perQ, perQBytes: its results and docno bytes),
   * which then hold where its next result and next docno byte go.
   */
  private record(nSeen: number): void {
    const { perQ, perQBytes, seen } = this;
    if (this.segCount + nSeen > this.segQ.length) {
      const size = Math.max(this.segCount + nSeen, this.segQ.length * 2);
      this.segQ = grow32(this.segQ, size);
      this.segStart = grow32(this.segStart, size);
      this.segLen = grow32(this.segLen, size);
      this.segArena = grow32(this.segArena, size);
    }
    let at = this.count;
    let atBytes = this.arenaUsed;
    for (let k = 0; k < nSeen; k++) {
      const q = seen[k] as number;
      const c = perQ[q] as number;
      const bytes = perQBytes[q] as number;
      const s = this.segCount++;
      this.segQ[s] = q;
      this.segStart[s] = at;
      this.segLen[s] = c;
      this.segArena[s] = atBytes;
      perQ[q] = at;
      perQBytes[q] = atBytes;
      at += c;
      atBytes += bytes;
    }
    this.count = at;
    this.arenaUsed = atBytes;
  }

  private room(n: number, bytes: number): void {
    if (this.count + n > this.entryLimit) {
      if (this.region) throw new RegionFull();
      const size = Math.max(this.count + n, Math.ceil(this.entryLimit * 1.5));
      const st = this.store;
      const s = new Float64Array(size);
      s.set(st.scores.subarray(0, this.count));
      const l = new Uint8Array(size);
      l.set(st.docLen.subarray(0, this.count));
      this.store = { ...st, scores: s, hashes: grow32(st.hashes, size), docLen: l };
      this.entryLimit = size;
    }
    if (this.arenaUsed + bytes > this.arenaLimit) {
      if (this.region) throw new RegionFull();
      const size = Math.max(this.arenaUsed + bytes, Math.ceil(this.arenaLimit * 1.5));
      const a = new Uint8Array(size);
      a.set(this.store.arena.subarray(0, this.arenaUsed));
      this.store = { ...this.store, arena: a };
      this.arenaLimit = size;
    }
  }

  /** The segments recorded so far. */
  segments(): SegmentList {
    const n = this.segCount;
    return {
      q: this.segQ.subarray(0, n),
      start: this.segStart.subarray(0, n),
      len: this.segLen.subarray(0, n),
      arena: this.segArena.subarray(0, n),
      count: n,
    };
  }
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
  private readonly arenaAt: Int32Array;
  private readonly view: TrecRun;

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
    this.arenaAt = new Int32Array(total);
    const tail = new Int32Array(nq).fill(-1);
    let s = 0;
    lists.forEach((l, li) => {
      const remap = remaps[li];
      for (let k = 0; k < l.count; k++, s++) {
        const own = l.q[k] as number;
        const q = remap ? (remap[own] as number) : own;
        this.start[s] = l.start[k] as number;
        this.len[s] = l.len[k] as number;
        this.arenaAt[s] = l.arena[k] as number;
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
      arena: store.arena,
    };
  }

  /** Query q's results, in file order, as entries [0, n) of a run valid until the next gather. */
  gather(q: number): { run: TrecRun; rq: RunQuery } {
    const v = this.view;
    const { scores, hashes, docLen } = this.store;
    let n = 0;
    for (let s = this.head[q] as number; s >= 0; s = this.next[s] as number) {
      const from = this.start[s] as number;
      const to = from + (this.len[s] as number);
      let at = this.arenaAt[s] as number;
      // a segment is a few dozen results: loops beat set()'s subarrays
      for (let i = from; i < to; i++, n++) {
        v.scores[n] = scores[i] as number;
        v.hashes[n] = hashes[i] as number;
        const len = docLen[i] as number;
        v.docOff[n] = at;
        v.docLen[n] = len;
        at += len;
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
