import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { TopK } from './top-k.js';
import { VECTOR_DOTS_WASM } from './vector-dots-wasm.js';
import {
  doneAt,
  hitsOf,
  newJob,
  runTile,
  runTiles,
  stateAt,
  tilesAt,
  unfinishedTiles,
  type WorkerSetup,
} from './vector-threads.js';
import {
  CHUNK,
  cosineOf,
  inF32Range,
  normOf,
  TILE32,
  type PassArea,
  type PassIndex,
  type VectorFilter,
  type VectorHit,
} from './vector-two-pass.js';

export { f32Margin, type VectorFilter, type VectorHit } from './vector-two-pass.js';

/**
 * Exact cosine top-k over a fixed set of record vectors (the semantic index's matrix).
 *
 * Storage: the records as f32 rows in one contiguous buffer (the WebAssembly kernel's memory when it
 * runs), their norms computed once, when a row is set.
 *
 * Scores are the ones the engine always reported, bit for bit: dot = sum over i in order of
 * f64(record[i]) * f64(query[i]) in f64, cosine = dot / (norm(record) * norm(query)), 0 when either
 * norm is 0. The kernels (vector-dots.wat, or the JavaScript below when WebAssembly is unavailable)
 * run several such sums side by side and never reorder one, so no score can move by an ulp; the hits
 * go through the same TopK heap in ascending record order, so ties keep the engine's total order
 * (score desc, record asc). A Float32 or reassociated sum would be faster and would change scores.
 *
 * - `topK`: one query (what a request does): all records, four at a time.
 * - `topKMany`: many queries, in two passes. The first (WebAssembly `dots32`) computes every dot in
 *   f32, reassociated, four records x eight queries per kernel pass over tiles of 64 queries x chunks
 *   of 1,024 records: four times the work per instruction of the exact kernel. Its error is bounded
 *   (`f32Margin`), so it can only keep records that might belong to a query's top k: every record
 *   whose approximate score is within twice the bound of the k-th best. The second pass scores those
 *   few exactly (the in-order f64 sum of `cosine`) through the TopK heap in ascending record order,
 *   so hits, order and scores are the exact kernel's, bit for bit (vector-two-pass.ts). A large
 *   batch is shared with worker threads, one per further core (at most 3), over the same memory
 *   (vector-threads.ts). Without WebAssembly: the exact kernel on tiles of 32 queries.
 */

/** queries per tile of topKMany's exact kernel (a multiple of the kernel's group of 8) */
const TILE = 32;
/** a batch with at least this many multiply-adds (queries x records x dims) is shared with workers */
let threadedWork = 2e9;
/** a worker that runs no tile for this long is given up: its tiles are run by the calling thread */
const STALLED_MS = 60_000;
/** at most this many hits per batch are shared through memory (queries x k) */
const THREADED_HITS = 4e6;
/** beyond this much memory the JavaScript kernel is used (WebAssembly addresses are i32 here) */
const WASM_MAX_BYTES = 2 ** 31 - 2 ** 20;

// the project's lib (ES2022, no DOM) declares no WebAssembly: the few parts used here
interface DotsExports {
  dots1(rec: number, count: number, dims: number, q: number, out: number): void;
  dotsMany(rec: number, count: number, dims: number, qs: number, groups: number, out: number): void;
  dots32(rec: number, count: number, dims: number, qt: number, groups: number, out: number): void;
}
interface SharedMemory {
  buffer: SharedArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
  Memory: new (d: { initial: number; maximum: number; shared: boolean }) => SharedMemory;
}
interface Kernel {
  exports: DotsExports;
  memory: SharedMemory;
  module: object;
}

let enabled = process.env.RGATE_VECTOR_WASM !== 'off';
let compiled: object | null | undefined;

/**
 * Whether new indexes use the WebAssembly kernel (default yes; RGATE_VECTOR_WASM=off says no): the
 * tests compare both kernels with the reference loop.
 * @internal a switch for tests and benchmarks
 */
export function useVectorWasm(on: boolean): void {
  enabled = on;
}

/**
 * The smallest batch (queries x records x dims) shared with worker threads (default 2e9: below it,
 * starting them costs more than they save): the tests share small batches.
 * @internal a switch for tests and benchmarks
 */
export function shareVectorBatchesFrom(work: number): void {
  threadedWork = work;
}

/**
 * The kernel over a shared memory of `bytes` (shared, so worker threads can read the records where
 * they were written), or null: no WebAssembly or SIMD here (e.g. --jitless), or no memory that large.
 */
function instantiate(bytes: number): Kernel | null {
  if (!enabled || bytes > WASM_MAX_BYTES) return null;
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (compiled === undefined) {
    try {
      if (!wasm) throw new Error('no WebAssembly');
      compiled = new wasm.Module(Buffer.from(VECTOR_DOTS_WASM, 'base64'));
    } catch {
      compiled = null;
    }
  }
  if (compiled === null || !wasm) return null;
  try {
    const pages = Math.max(1, Math.ceil(bytes / 65536));
    const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    const exports = new wasm.Instance(compiled, { env: { memory } }).exports as DotsExports;
    return { exports, memory, module: compiled };
  } catch {
    return null;
  }
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

export class VectorIndex {
  readonly count: number;
  readonly dims: number;
  /** record d's f32 row at [d * dims, (d + 1) * dims) */
  private readonly data: Float32Array;
  private readonly norms: Float64Array;
  private readonly wasm: DotsExports | null;
  private readonly kernelOf: Kernel | null;
  /** byte offsets in the kernel's memory (WebAssembly) */
  private readonly qOff: number;
  private readonly outOff: number;
  /** the query area (f64) and the dots (f64): views of the kernel's memory, or plain arrays */
  private readonly qArea: Float64Array;
  private readonly out: Float64Array;
  /** 1 / norm of each record (0 for a zero record), to scale the approximate dots */
  private readonly invNorms: Float64Array;
  /** records with a value outside `inF32Range`: always scored exactly */
  private readonly outOfRange = new Set<number>();
  /** this thread's view for the two-pass tiles, and its scratch */
  private readonly pass: { ix: PassIndex; area: PassArea } | null;
  /** the scratch of each worker thread: byte offsets of its f32 query area and dots */
  private readonly workerAreas: { qOff: number; outOff: number }[] = [];
  private workers: Worker[] | null = null;
  /** the last batch of topKMany: its tiles of queries, and how many of them worker threads ran */
  lastBatch = { tiles: 0, byWorkers: 0 };
  /** the rows and norms, as cosineOf reads them */
  private readonly rows: Pick<PassIndex, 'data' | 'norms' | 'dims'>;

  constructor(count: number, dims: number) {
    this.count = count;
    this.dims = dims;
    // memory: records | norms | 1 / norms | this thread's scratch | each worker's scratch. Rows are
    // padded with zeros to a multiple of 4: dots32 takes records four at a time
    const recBytes = align16(Math.ceil(count / 4) * 4 * dims * 4);
    const normBytes = align16(count * 8);
    const qBytes = TILE * dims * 8;
    const outBytes = Math.max(count, TILE * CHUNK) * 8;
    const workerBytes = TILE32 * dims * 4 + TILE32 * CHUNK * 4;
    const extra = Math.max(0, Math.min(3, availableParallelism() - 1));
    const normsOff = recBytes;
    const invOff = normsOff + normBytes;
    this.qOff = invOff + normBytes;
    this.outOff = this.qOff + qBytes;
    let at = this.outOff + outBytes;
    for (let w = 0; w < extra; w++, at += workerBytes)
      this.workerAreas.push({ qOff: at, outOff: at + TILE32 * dims * 4 });
    this.kernelOf = instantiate(at);
    this.wasm = this.kernelOf?.exports ?? null;
    if (this.kernelOf) {
      const buf = this.kernelOf.memory.buffer;
      this.data = new Float32Array(buf, 0, count * dims);
      this.norms = new Float64Array(buf, normsOff, count);
      this.invNorms = new Float64Array(buf, invOff, count);
      this.qArea = new Float64Array(buf, this.qOff, qBytes / 8);
      this.out = new Float64Array(buf, this.outOff, outBytes / 8);
      const dots32 = this.kernelOf.exports.dots32;
      this.pass = {
        ix: { count, dims, data: this.data, norms: this.norms, invNorms: this.invNorms, dots32 },
        area: {
          qOff: this.qOff,
          outOff: this.outOff,
          qt: new Float32Array(buf, this.qOff, TILE32 * dims),
          out: new Float32Array(buf, this.outOff, TILE32 * CHUNK),
        },
      };
    } else {
      this.data = new Float32Array(count * dims);
      this.norms = new Float64Array(count);
      this.invNorms = new Float64Array(count);
      this.qArea = new Float64Array(qBytes / 8);
      this.out = new Float64Array(outBytes / 8);
      this.pass = null;
    }
    this.rows = { data: this.data, norms: this.norms, dims };
  }

  /** which kernel computes the dots (for benchmarks and tests) */
  get kernel(): 'wasm' | 'js' {
    return this.wasm ? 'wasm' : 'js';
  }

  /** Store record d's vector (rounded to f32) and its norm (of the rounded values, summed in f64). */
  setRow(d: number, v: ArrayLike<number>): void {
    const dims = this.dims;
    const data = this.data;
    const base = d * dims;
    let n = 0;
    for (let i = 0; i < dims; i++) {
      const x = Math.fround(v[i] as number);
      data[base + i] = x;
      n += x * x;
    }
    this.norms[d] = Math.sqrt(n);
    this.invNorms[d] = n === 0 ? 0 : 1 / Math.sqrt(n);
    let inRange = true;
    for (let i = base; i < base + dims && inRange; i++) inRange = inF32Range(data[i] as number);
    if (inRange) this.outOfRange.delete(d);
    else this.outOfRange.add(d);
  }

  /** the norm of a query vector, summed in f64 as the records' are */
  static norm(q: Float32Array): number {
    return normOf(q);
  }

  /** cosine of record d with q (qNorm = VectorIndex.norm(q)) */
  cosine(q: Float32Array, qNorm: number, d: number): number {
    return cosineOf(this.rows, q, qNorm, d);
  }

  /** Exact top-k of one query: cosine desc, record asc. */
  topK(q: Float32Array, k: number, filter: VectorFilter = {}): VectorHit[] {
    this.checkQuery(q);
    const qNorm = VectorIndex.norm(q);
    const heap = new TopK(k);
    const n = this.count;
    const out = this.out;
    if (this.wasm) {
      this.qArea.set(q);
      this.wasm.dots1(0, n, this.dims, this.qOff, this.outOff);
    } else {
      jsDots1(this.data, n, this.dims, q, out);
    }
    this.offer(heap, qNorm, out, 0, n, 1, 0, filter);
    return heap.drain();
  }

  /** Exact top-k of each query (the same hits as topK of each), computed in tiles of queries. */
  topKMany(queries: readonly Float32Array[], k: number, filter: VectorFilter = {}): VectorHit[][] {
    for (const q of queries) this.checkQuery(q);
    if (!this.pass || k <= 0) return this.exactTiles(queries, k, filter);
    // a query outside the f32 pass's range takes the exact kernel
    const inRange = queries.map((q) => q.every(inF32Range));
    const twoPass = queries.filter((_, j) => inRange[j]);
    const byTwoPass = this.twoPassAll(twoPass, k, filter);
    let next = 0;
    return queries.map((q, j) => (inRange[j] ? (byTwoPass[next++] as VectorHit[]) : this.topK(q, k, filter)));
  }

  /** Every tile of the two passes: on this thread, and on the workers when the batch is large. */
  private twoPassAll(queries: readonly Float32Array[], k: number, filter: VectorFilter): VectorHit[][] {
    const pass = this.pass as { ix: PassIndex; area: PassArea };
    const always = [...this.outOfRange].sort((a, b) => a - b);
    const large =
      queries.length > TILE32 &&
      queries.length * this.count * this.dims >= threadedWork &&
      queries.length * k <= THREADED_HITS;
    const workers = large ? this.startWorkers() : [];
    const job = newJob(queries, this.dims, k, filter, always, workers.length);
    for (const w of workers) w.postMessage(job);
    runTiles(pass.ix, pass.area, job);
    // a worker that has not started yet is cancelled; one that started is waited for while it shows
    // progress (a thread that died says nothing: its tiles are run here, below)
    workers.forEach((_, slot) => {
      if (Atomics.compareExchange(job.control, stateAt(slot), 0, 2) === 0) return;
      let seen = Atomics.load(job.control, tilesAt(slot));
      let still = 0;
      while (Atomics.load(job.control, doneAt(slot)) === 0 && still < STALLED_MS) {
        if (Atomics.wait(job.control, doneAt(slot), 0, 1000) !== 'timed-out') continue;
        const now = Atomics.load(job.control, tilesAt(slot));
        still = now === seen ? still + 1000 : 0;
        seen = now;
      }
    });
    // a tile a worker claimed and did not finish (it threw, or stopped): its two writers, if the
    // worker wakes, write the same hits, each from its own scratch
    for (const t of unfinishedTiles(job)) runTile(pass.ix, pass.area, job, t);
    this.lastBatch = {
      tiles: Math.ceil(queries.length / TILE32),
      byWorkers: workers.reduce((n, _, slot) => n + Atomics.load(job.control, tilesAt(slot)), 0),
    };
    return hitsOf(job);
  }

  /** The worker threads, started once per index (unref'd: they never keep the process alive). */
  private startWorkers(): Worker[] {
    if (this.workers) return this.workers;
    const k = this.kernelOf as Kernel;
    const url = new URL('./vector-topk-worker.js', import.meta.url);
    this.workers = this.workerAreas.map((area, slot) => {
      const setup: WorkerSetup = {
        module: k.module,
        memory: k.memory,
        count: this.count,
        dims: this.dims,
        normsOff: this.norms.byteOffset,
        invOff: this.invNorms.byteOffset,
        qOff: area.qOff,
        outOff: area.outOff,
        slot,
      };
      const w = new Worker(url, { workerData: setup, execArgv: [] });
      w.unref();
      // a worker that cannot start is never waited for (it is cancelled): nothing to report here
      w.on('error', () => undefined);
      return w;
    });
    return this.workers;
  }

  /** The exact kernel on tiles of queries: every dot in f64, in element order. */
  private exactTiles(queries: readonly Float32Array[], k: number, filter: VectorFilter): VectorHit[][] {
    const dims = this.dims;
    const result: VectorHit[][] = [];
    for (let t0 = 0; t0 < queries.length; t0 += TILE) {
      const tile = queries.slice(t0, t0 + TILE);
      const groups = Math.ceil(tile.length / 8);
      const nq = groups * 8;
      const heaps = tile.map(() => new TopK(k));
      const qNorms = tile.map((q) => VectorIndex.norm(q));
      if (this.wasm) {
        // group g, element i: queries 8g..8g+7 side by side (pairs of them share an f64x2)
        const qa = this.qArea;
        qa.fill(0, 0, nq * dims);
        tile.forEach((q, j) => {
          const base = (j >> 3) * dims * 8 + (j & 7);
          for (let i = 0; i < dims; i++) qa[base + i * 8] = q[i] as number;
        });
      }
      for (let c0 = 0; c0 < this.count; c0 += CHUNK) {
        const cc = Math.min(CHUNK, this.count - c0);
        if (this.wasm) this.wasm.dotsMany(c0 * dims * 4, cc, dims, this.qOff, groups, this.outOff);
        else jsDotsMany(this.data, c0, cc, dims, tile, nq, this.out);
        for (let j = 0; j < tile.length; j++)
          this.offer(heaps[j] as TopK, qNorms[j] as number, this.out, c0, cc, nq, j, filter);
      }
      for (const h of heaps) result.push(h.drain());
    }
    return result;
  }

  private checkQuery(q: Float32Array): void {
    if (q.length !== this.dims)
      throw new RangeError(`query vector has ${q.length} dimensions, the index ${this.dims}`);
  }

  /**
   * Offer records [c0, c0 + cc) to the heap in ascending order, their dots at out[r * stride + j];
   * the cosine is computed exactly as cosine() does.
   */
  private offer(
    heap: TopK,
    qNorm: number,
    out: Float64Array,
    c0: number,
    cc: number,
    stride: number,
    j: number,
    filter: VectorFilter,
  ): void {
    const norms = this.norms;
    const exclude = filter.exclude;
    const positiveOnly = filter.positiveOnly === true;
    for (let r = 0; r < cc; r++) {
      const d = c0 + r;
      if (exclude !== undefined && exclude[d] === 1) continue;
      const dn = norms[d] as number;
      const s = dn === 0 || qNorm === 0 ? 0 : (out[r * stride + j] as number) / (dn * qNorm);
      if (positiveOnly && !(s > 0)) continue;
      heap.offer(d, s);
    }
  }
}

/** The JavaScript kernel of dots1: four sums side by side, each in element order. */
function jsDots1(data: Float32Array, count: number, dims: number, q: Float32Array, out: Float64Array): void {
  let r = 0;
  for (; r + 4 <= count; r += 4) {
    const b0 = r * dims;
    const b1 = b0 + dims;
    const b2 = b1 + dims;
    const b3 = b2 + dims;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < dims; i++) {
      const x = q[i] as number;
      s0 += (data[b0 + i] as number) * x;
      s1 += (data[b1 + i] as number) * x;
      s2 += (data[b2 + i] as number) * x;
      s3 += (data[b3 + i] as number) * x;
    }
    out[r] = s0;
    out[r + 1] = s1;
    out[r + 2] = s2;
    out[r + 3] = s3;
  }
  for (; r < count; r++) {
    const b = r * dims;
    let s = 0;
    for (let i = 0; i < dims; i++) s += (data[b + i] as number) * (q[i] as number);
    out[r] = s;
  }
}

/** The JavaScript kernel of dotsMany: dot of record c0 + r with query j at out[r * nq + j]. */
function jsDotsMany(
  data: Float32Array,
  c0: number,
  cc: number,
  dims: number,
  tile: readonly Float32Array[],
  nq: number,
  out: Float64Array,
): void {
  for (let r = 0; r < cc; r++) {
    const b = (c0 + r) * dims;
    for (let j = 0; j < tile.length; j++) {
      const q = tile[j] as Float32Array;
      let s = 0;
      for (let i = 0; i < dims; i++) s += (data[b + i] as number) * (q[i] as number);
      out[r * nq + j] = s;
    }
  }
}
