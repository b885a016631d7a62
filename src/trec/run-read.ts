/**
 * Reading a TREC run: from memory, from a file (large files on two threads), or from rows in memory.
 */
import { existsSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { NL, textToByteString } from './bytes.js';
import { startsWithBom } from '../core/utf8.js';
import {
  closeInput,
  emptyInputError,
  inputError,
  openInput,
  STDIN,
  trecBomError,
  type TrecInput,
} from './input.js';
import type { TrecRun } from './run.js';
import {
  CHUNK_ARENA,
  CHUNK_ENTRIES,
  estimateRun,
  feedRange,
  READ_CHUNK_BYTES,
  readSample,
} from './run-chunks.js';
import { RunBuilder } from './run-parse.js';
import { RegionFull, type RegionResult, type RunStorage } from './run-storage.js';
import {
  ChunkGrouper,
  MAX_STORE_BYTES,
  RECORD_HEAD,
  SegmentedRun,
  segmentsPay,
  type SegmentList,
  type SegmentStore,
} from './run-segments.js';

/** Parse a whole run held in memory. */
export function parseRun(buf: Uint8Array, label: string): TrecRun {
  if (startsWithBom(buf)) throw trecBomError(label);
  const b = new RunBuilder(label, Math.ceil(buf.length / 32), Math.ceil(buf.length / 3));
  b.feed(buf, buf.length);
  return b.finish();
}

/** Runs at least this large are split in two and parsed on two threads. */
const PARALLEL_MIN_BYTES = 32 << 20;

type WorkerThreads = typeof import('node:worker_threads');
let workerThreads: WorkerThreads | undefined;

/**
 * node:worker_threads on the first split: loading it loads node's streams (~6 ms of a 50-query
 * `rgate score`), and a run under PARALLEL_MIN_BYTES never starts a worker.
 */
function threads(): WorkerThreads {
  return (workerThreads ??= createRequire(import.meta.url)('node:worker_threads') as WorkerThreads);
}

/**
 * Read and parse a run file, `-` (stdin) or a pipe; a run without results is an error naming it.
 */
export function readRunFile(path: string, opts: RunReadOptions = {}): TrecRun {
  return startRunRead(path, opts).result();
}

export interface RunReadOptions {
  threads?: 1 | 2;
  /** how errors name the file (default the path): the path as the user wrote it */
  label?: string;
  /** startSegmentedRunRead: files this large come back as segments (default 32 MiB, as threads) */
  segmentMinBytes?: number;
}

/** A run being read: result() parses what is left and returns the run; cancel() lets it go. */
export interface RunReading {
  result(): TrecRun;
  cancel(): void;
}

/**
 * Start reading a run: a large regular file's worker thread starts parsing its second half now, so
 * whatever the caller does before result() (rgate score reads the qrels) overlaps it. Anything else,
 * and any error opening the file, waits for result(), which reads (or fails) as readRunFile would:
 * a caller that reads another file in between reports that file's errors first.
 */
export function startRunRead(path: string, opts: RunReadOptions = {}): RunReading {
  return startRead(path, opts, false) as RunReading;
}

/** A run being read whole or (a large regular file) as segments (run-segments.ts). */
export interface SegmentedRunReading {
  result(): TrecRun | SegmentedRun;
  cancel(): void;
}

/**
 * startRunRead, but a regular file of at least PARALLEL_MIN_BYTES comes back as a SegmentedRun: its
 * queries are grouped chunk by chunk as it is read instead of all at once at the end (a run grouped
 * by query is better read by streamRun). The same errors, in the same order, once its queries are
 * walked with forEachQuery.
 */
export function startSegmentedRunRead(path: string, opts: RunReadOptions = {}): SegmentedRunReading {
  return startRead(path, opts, true);
}

function startRead(path: string, opts: RunReadOptions, segmented: boolean): SegmentedRunReading {
  const segmentMin = segmented ? (opts.segmentMinBytes ?? PARALLEL_MIN_BYTES) : undefined;
  const later: SegmentedRunReading = {
    result: () => readRunNow(path, opts.label, segmentMin),
    cancel: () => {},
  };
  if (path === STDIN) return later;
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return later;
    size = st.size;
  } catch {
    return later;
  }
  if ((opts.threads ?? (size >= PARALLEL_MIN_BYTES ? 2 : 1)) !== 2) return later;
  const url = new URL('./run-read-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return later;
  let input: TrecInput;
  try {
    input = openInput(path, opts.label);
  } catch {
    return later;
  }
  if (input.kind !== 'file') {
    closeInput(input);
    return later;
  }
  const { fd, label } = input;
  let split: RunSplit | undefined;
  // the first MiB, read once: whether segments pay and how large the halves' storage is
  const sample = readSample(fd, input.size);
  const reread = segmentedReread(path, opts.label, fd, input.size, segmentMin, sample);
  let open = true;
  const close = (): void => {
    if (open) closeInput(input);
    open = false;
  };
  try {
    split = startRunSplit(path, fd, input.size, label, url, reread, sample);
  } catch (e) {
    close();
    throw e;
  }
  return {
    result() {
      try {
        const run = split?.finish() ?? readRegularRun(fd, input.size, label, reread, sample);
        if (run.qids.length === 0) throw emptyInputError(label, input.size, 'results');
        return run;
      } finally {
        close();
      }
    },
    cancel() {
      split?.abandon();
      close();
    },
  };
}

/** Read a run on one thread; a regular file of at least segmentMin bytes as segments. */
function readRunNow(
  path: string,
  label: string | undefined,
  segmentMin: number | undefined,
): TrecRun | SegmentedRun {
  const input = openInput(path, label);
  let run: TrecRun | SegmentedRun;
  let bytes: number;
  if (input.kind === 'bytes') {
    run = parseRun(input.buf, input.label);
    bytes = input.buf.length;
  } else {
    try {
      // startRunRead split every file it could: this one is read on one thread
      // the first MiB, read once for segmentsPay and estimateRun (both look at it from this size)
      const sample = input.size >= PARALLEL_MIN_BYTES ? readSample(input.fd, input.size) : undefined;
      const reread = segmentedReread(path, label, input.fd, input.size, segmentMin, sample);
      run = readRegularRun(input.fd, input.size, input.label, reread, sample);
    } finally {
      closeInput(input);
    }
    bytes = input.size;
  }
  if (run.qids.length === 0) throw emptyInputError(input.label, bytes, 'results');
  return run;
}

/**
 * A file read on one thread (small, or when the split gave up: it gives the same result); with
 * `reread` (see rereadForDuplicate), as a SegmentedRun; `sample`, the file's first MiB when the
 * caller has read it.
 */
function readRegularRun(
  fd: number,
  size: number,
  label: string,
  reread?: (found: unknown) => never,
  sample?: Uint8Array,
): TrecRun | SegmentedRun {
  // a file read in one chunk is sized by the scanner, which counts its entries before they are
  // stored; a larger small file goes straight to growable arrays (sampling it costs more than a
  // regrowth)
  const est =
    size >= PARALLEL_MIN_BYTES ? estimateRun(fd, size, sample) : { bytesPerLine: 32, docBytesPerByte: 0.34 };
  const oneChunk = size <= READ_CHUNK_BYTES;
  const entries = oneChunk ? 0 : Math.ceil((size / est.bytesPerLine) * 1.02) + 16;
  const arenaBytes = oneChunk ? 0 : Math.ceil(size * est.docBytesPerByte * 1.05) + 1024;
  if (!reread) {
    const b = new RunBuilder(label, entries, arenaBytes);
    feedRange(b, fd, 0, size);
    return b.finish();
  }
  const b = new RunBuilder(label, CHUNK_ENTRIES, CHUNK_ARENA);
  const store: SegmentStore = {
    bytes: new Uint8Array(Math.min(MAX_STORE_BYTES, Math.max(1 << 16, entries * RECORD_HEAD + arenaBytes))),
  };
  const g = new ChunkGrouper(b, store);
  try {
    feedRange(g, fd, 0, size);
    g.flush();
  } catch (e) {
    // a docno too long for the store (MAX_DOC_LEN): read whole
    if (e instanceof RegionFull) return readRegularRun(fd, size, label, undefined, sample);
    throw e;
  }
  return new SegmentedRun(b.runId, b.qids.slice(), b.lineNo, g.store, [g.segments()], [undefined], reread);
}

/**
 * How a file of `size` bytes open as `fd` is read: as segments (then with the reread a duplicate
 * needs) when segmented reading was asked for (`segmentMin`), it is that large and segments pay;
 * otherwise undefined, whole.
 */
function segmentedReread(
  path: string,
  label: string | undefined,
  fd: number,
  size: number,
  segmentMin: number | undefined,
  sample?: Uint8Array,
): ((found: unknown) => never) | undefined {
  const seg = segmentMin !== undefined && size >= segmentMin && segmentsPay(fd, size, sample);
  return seg ? rereadForDuplicate(path, label) : undefined;
}

/**
 * A segmented run keeps no line numbers; a duplicate found in it is reported by reading the run
 * again the ordinary way, which throws the same error naming both lines (`found` if it somehow
 * does not).
 */
function rereadForDuplicate(path: string, label: string | undefined): (found: unknown) => never {
  return (found) => {
    readRunNow(path, label, undefined);
    throw found;
  };
}

/** What the worker sends back (see run-read-worker.ts). */
export type WorkerReply =
  | { kind: 'ok'; result: RegionResult; segments?: SegmentList }
  | { kind: 'full' }
  | { kind: 'input'; line: number; what: string; hint: string }
  | { kind: 'crash'; message: string };

export interface WorkerJob {
  path: string;
  label: string;
  start: number;
  end: number;
  /** a SegmentStore when segmented */
  storage: RunStorage | SegmentStore;
  entryBase: number;
  entryLimit: number;
  /** segmented: the store's bytes the worker fills */
  arenaBase: number;
  arenaLimit: number;
  flag: Int32Array;
  port: MessagePort;
  /** group each chunk by query and send the segments back (run-segments.ts) */
  segmented: boolean;
}

/** A split file: the worker is parsing the second half; finish() parses the first and merges. */
interface RunSplit {
  /** the run, or undefined when the split gave up (read it on one thread: the same result) */
  finish(): TrecRun | SegmentedRun | undefined;
  abandon(): void;
}

/**
 * Large files are split at a line boundary near the middle and the second half is parsed by a worker
 * thread into the same shared arrays; anything unusual (an estimate too small, a worker failure)
 * makes finish() give up, and the file is read on one thread instead.
 */
function startRunSplit(
  path: string,
  fd: number,
  size: number,
  label: string,
  url: URL,
  reread: ((found: unknown) => never) | undefined,
  sample: Uint8Array,
): RunSplit | undefined {
  const segmented = reread !== undefined;
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
  const est = estimateRun(fd, size, sample);
  const margin = 1.15;
  const l1 = Math.ceil((mid / est.bytesPerLine) * margin) + 4096;
  const l2 = Math.ceil(((size - mid) / est.bytesPerLine) * margin) + 4096;
  const a1 = Math.ceil(mid * est.docBytesPerByte * margin) + (1 << 16);
  const a2 = Math.ceil((size - mid) * est.docBytesPerByte * margin) + (1 << 16);
  const n = l1 + l2;
  // a segmented read keeps records (run-segments.ts): bytes [0, r1) for this thread, the rest the
  // worker's (arenaBase, arenaLimit)
  const r1 = l1 * RECORD_HEAD + a1;
  const r2 = l2 * RECORD_HEAD + a2;
  // a store past int32 offsets: one thread, which reads such a run whole
  if (segmented && r1 + r2 > MAX_STORE_BYTES) return undefined;
  const storage = segmented
    ? { bytes: new Uint8Array(new SharedArrayBuffer(r1 + r2)) }
    : sharedRunStorage(n, a1 + a2);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { MessageChannel, receiveMessageOnPort, Worker } = threads();
  const { port1, port2 } = new MessageChannel();
  const job: WorkerJob = {
    path,
    label,
    start: mid,
    end: size,
    storage,
    entryBase: l1,
    entryLimit: n,
    arenaBase: segmented ? r1 : a1,
    arenaLimit: segmented ? r1 + r2 : a1 + a2,
    flag,
    port: port2,
    segmented,
  };
  // execArgv: [] so flags like `-e` or `--input-type` of the parent never reach the worker
  const worker = new Worker(url, { workerData: job, transferList: [port2], execArgv: [] });
  worker.unref();
  const abandon = (): void => {
    port1.close();
    void worker.terminate();
  };
  return {
    abandon,
    finish() {
      const region = { entryBase: 0, entryLimit: l1, arenaBase: 0, arenaLimit: a1 };
      const main = segmented
        ? new RunBuilder(label, CHUNK_ENTRIES, CHUNK_ARENA)
        : new RunBuilder(label, 0, 0, { storage: storage as RunStorage, ...region });
      const g = segmented
        ? new ChunkGrouper(main, storage as SegmentStore, { base: 0, limit: r1 })
        : undefined;
      let mainError: unknown;
      try {
        feedRange(g ?? main, fd, 0, mid);
        g?.flush();
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
      abandon();
      if (mainError instanceof RegionFull) return undefined;
      if (mainError) throw mainError; // earlier lines: this is the file's first error
      if (!reply || reply.kind === 'full' || reply.kind === 'crash') return undefined;
      if (reply.kind === 'input') throw inputError(label, main.lineNo + reply.line, reply.what, reply.hint);
      if (!g) {
        main.absorb(l1, reply.result);
        return main.finish();
      }
      if (!reply.segments) return undefined;
      // the worker's queries in the main thread's numbering: new ones after its own, in the order
      // the worker first saw them (as absorb numbers them)
      const qids = main.qids.slice();
      const index = new Map(qids.map((q, i) => [q, i]));
      const remap = Int32Array.from(reply.result.qids, (q) => {
        let i = index.get(q);
        if (i === undefined) index.set(q, (i = qids.push(q) - 1));
        return i;
      });
      const tail = reply.segments;
      const runId = tail.count > 0 ? reply.result.runId : main.runId;
      const lines = main.lineNo + reply.result.lines;
      return new SegmentedRun(runId, qids, lines, g.store, [g.segments(), tail], [undefined, remap], reread!);
    },
  };
}

/** Shared arrays for n entries and an arena of arenaBytes (a split read whole). */
function sharedRunStorage(n: number, arenaBytes: number): RunStorage {
  const i32 = (): Int32Array => new Int32Array(new SharedArrayBuffer(4 * n));
  return {
    hashes: i32(),
    scores: new Float64Array(new SharedArrayBuffer(8 * n)),
    arena: new Uint8Array(new SharedArrayBuffer(arenaBytes)),
    docOff: i32(),
    docLen: i32(),
    qidIdx: i32(),
    lineOf: i32(),
  };
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
