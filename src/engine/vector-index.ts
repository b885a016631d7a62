import { TopK } from './top-k.js';
import { VECTOR_DOTS_WASM } from './vector-dots-wasm.js';

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
 *   so hits, order and scores are the exact kernel's, bit for bit. Without WebAssembly: the exact
 *   kernel on tiles of 32 queries.
 */
export interface VectorHit {
  doc: number;
  score: number;
}

/** Which records may be hits: `exclude[d] === 1` never; `positiveOnly`: a cosine <= 0 never. */
export interface VectorFilter {
  exclude?: Uint8Array;
  positiveOnly?: boolean;
}

/** queries per tile of topKMany's exact kernel (a multiple of the kernel's group of 8) */
const TILE = 32;
/** queries per tile of the f32 first pass: its f32 query area is the exact tile's f64 one */
const TILE32 = 64;
/** records per kernel call of topKMany: the tile's dots (TILE x CHUNK f64) stay in L2 */
const CHUNK = 1024;
/** beyond this much memory the JavaScript kernel is used (WebAssembly addresses are i32 here) */
const WASM_MAX_BYTES = 2 ** 31 - 2 ** 20;

// the project's lib (ES2022, no DOM) declares no WebAssembly: the few parts used here
interface DotsExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  dots1(rec: number, count: number, dims: number, q: number, out: number): void;
  dotsMany(rec: number, count: number, dims: number, qs: number, groups: number, out: number): void;
  dots32(rec: number, count: number, dims: number, qt: number, groups: number, out: number): void;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
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

function instantiate(bytes: number): DotsExports | null {
  if (!enabled || bytes > WASM_MAX_BYTES) return null;
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (compiled === undefined) {
    try {
      if (!wasm) throw new Error('no WebAssembly');
      compiled = new wasm.Module(Buffer.from(VECTOR_DOTS_WASM, 'base64'));
    } catch {
      // no WebAssembly or no SIMD here (e.g. --jitless): the JavaScript kernel
      compiled = null;
    }
  }
  if (compiled === null || !wasm) return null;
  try {
    const x = new wasm.Instance(compiled, {}).exports as DotsExports;
    const have = x.memory.buffer.byteLength;
    if (bytes > have) x.memory.grow(Math.ceil((bytes - have) / 65536));
    return x;
  } catch {
    // no memory that large: the JavaScript kernel
    return null;
  }
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/**
 * Whether a value keeps the f32 first pass's bound: 0, or a magnitude in [2^-50, 2^50], so that
 * every product is a normal f32 and no sum of up to 2^20 of them overflows. Embeddings always are;
 * a record that is not is scored exactly whatever its approximate dot, a query that is not takes the
 * exact kernel.
 */
function inF32Range(x: number): boolean {
  const a = Math.abs(x);
  return a === 0 || (a >= 2 ** -50 && a <= 2 ** 50);
}

/**
 * The bound of the f32 first pass, relative to |record| * |query|: a dot of n f32 products summed in
 * f32 in any order is within gamma(n) = n u / (1 - n u) of the exact sum of |products| (u = 2^-24,
 * Higham, Accuracy and Stability of Numerical Algorithms, 3.1), and that sum is at most |record| *
 * |query|. n = dims + 2 covers the products, the lanes' final additions and the f64 scaling; 2^-40
 * more covers the f64 arithmetic of the comparison itself.
 */
export function f32Margin(dims: number): number {
  // (the bound needs no underflow or overflow in f32: `inF32Range` holds every vector to that)
  const nu = (dims + 2) * 2 ** -24;
  return nu / (1 - nu) + 2 ** -40;
}

export class VectorIndex {
  readonly count: number;
  readonly dims: number;
  /** record d's f32 row at [d * dims, (d + 1) * dims) */
  private readonly data: Float32Array;
  private readonly norms: Float64Array;
  private readonly wasm: DotsExports | null;
  /** byte offsets in the kernel's memory (WebAssembly) */
  private readonly qOff: number;
  private readonly outOff: number;
  /** the query area (f64) and the dots (f64): views of the kernel's memory, or plain arrays */
  private readonly qArea: Float64Array;
  private readonly out: Float64Array;
  /** the same memory as f32, for the first pass: transposed query groups, and the approximate dots */
  private readonly qArea32: Float32Array | null;
  private readonly out32: Float32Array | null;
  /** 1 / norm of each record (0 for a zero record), to scale the approximate dots */
  private readonly invNorms: Float64Array;
  /** records with a value outside `inF32Range`: always scored exactly (their ids, ascending) */
  private readonly outOfRange = new Set<number>();

  constructor(count: number, dims: number) {
    this.count = count;
    this.dims = dims;
    // rows padded with zeros to a multiple of 4: dots32 takes records four at a time
    const recBytes = align16(Math.ceil(count / 4) * 4 * dims * 4);
    const qBytes = TILE * dims * 8;
    const outBytes = Math.max(count, TILE * CHUNK) * 8;
    this.qOff = recBytes;
    this.outOff = recBytes + qBytes;
    this.wasm = instantiate(recBytes + qBytes + outBytes);
    if (this.wasm) {
      const buf = this.wasm.memory.buffer;
      this.data = new Float32Array(buf, 0, count * dims);
      this.qArea = new Float64Array(buf, this.qOff, qBytes / 8);
      this.out = new Float64Array(buf, this.outOff, outBytes / 8);
      this.qArea32 = new Float32Array(buf, this.qOff, TILE32 * dims);
      this.out32 = new Float32Array(buf, this.outOff, TILE32 * CHUNK);
    } else {
      this.data = new Float32Array(count * dims);
      this.qArea = new Float64Array(qBytes / 8);
      this.out = new Float64Array(outBytes / 8);
      this.qArea32 = null;
      this.out32 = null;
    }
    this.norms = new Float64Array(count);
    this.invNorms = new Float64Array(count);
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
    let n = 0;
    for (let i = 0; i < q.length; i++) n += (q[i] as number) * (q[i] as number);
    return Math.sqrt(n);
  }

  /** cosine of record d with q (qNorm = VectorIndex.norm(q)) */
  cosine(q: Float32Array, qNorm: number, d: number): number {
    const dn = this.norms[d] as number;
    if (dn === 0 || qNorm === 0) return 0;
    const data = this.data;
    const base = d * this.dims;
    let dot = 0;
    for (let i = 0; i < this.dims; i++) dot += (data[base + i] as number) * (q[i] as number);
    return dot / (dn * qNorm);
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
    if (!this.wasm || k <= 0) return this.exactTiles(queries, k, filter);
    // a query outside the f32 pass's range takes the exact kernel
    const twoPass = queries.filter((q) => q.every(inF32Range));
    const byTwoPass: VectorHit[][] = [];
    for (let t0 = 0; t0 < twoPass.length; t0 += TILE32)
      byTwoPass.push(...this.twoPassTile(twoPass.slice(t0, t0 + TILE32), k, filter));
    let next = 0;
    return queries.map((q) =>
      q.every(inF32Range) ? (byTwoPass[next++] as VectorHit[]) : this.topK(q, k, filter),
    );
  }

  /**
   * One tile of queries, two passes: approximate dots (f32) keep each record that could be in a
   * query's top k, then those are scored exactly. Why this loses no hit: for query q let m = the
   * margin times |q| (bounds |approximate - exact| of dot / |record|), T the k-th best approximate
   * score among eligible records. k records score at least T - m exactly; a record dropped scored
   * below T - 2m - slack approximately, so below T - m - slack exactly: never in the top k, and
   * never tied with one.
   */
  private twoPassTile(tile: readonly Float32Array[], k: number, filter: VectorFilter): VectorHit[][] {
    const dims = this.dims;
    const wasm = this.wasm as DotsExports;
    const qt = this.qArea32 as Float32Array;
    const out = this.out32 as Float32Array;
    const groups = Math.ceil(tile.length / 8);
    const nq = groups * 8;
    // group g, element i: queries 8g..8g+7 side by side
    qt.fill(0, 0, nq * dims);
    tile.forEach((q, j) => {
      const base = (j >> 3) * dims * 8 + (j & 7);
      for (let i = 0; i < dims; i++) qt[base + i * 8] = q[i] as number;
    });
    const qNorms = tile.map((q) => VectorIndex.norm(q));
    const margin = f32Margin(dims);
    // what a query may drop: below its k-th best approximate score minus `low`
    const low = qNorms.map((n) => 2 * margin * n + 1e-12 * n);
    const sure = qNorms.map((n) => margin * n);
    const heaps = tile.map(() => new TopK(k));
    const kept: number[][] = tile.map(() => []);
    const keptScore: number[][] = tile.map(() => []);
    const inv = this.invNorms;
    const exclude = filter.exclude;
    const positiveOnly = filter.positiveOnly === true;
    // out of range: its approximate dot means nothing, it is scored exactly (and sets no floor)
    const always = [...this.outOfRange].sort((a, b) => a - b);
    const skip = always.length > 0 ? new Uint8Array(this.count) : undefined;
    for (const d of always) (skip as Uint8Array)[d] = 1;
    for (let c0 = 0; c0 < this.count; c0 += CHUNK) {
      const cc = Math.min(CHUNK, this.count - c0);
      wasm.dots32(c0 * dims * 4, Math.ceil(cc / 4) * 4, dims, this.qOff, groups, this.outOff);
      for (let j = 0; j < tile.length; j++) {
        const heap = heaps[j] as TopK;
        const ids = kept[j] as number[];
        const scores = keptScore[j] as number[];
        const lowJ = low[j] as number;
        const sureJ = sure[j] as number;
        let floor = heap.threshold - lowJ;
        for (let r = 0; r < cc; r++) {
          const d = c0 + r;
          const s = (out[r * nq + j] as number) * (inv[d] as number);
          if (s < floor) continue;
          if (exclude !== undefined && exclude[d] === 1) continue;
          if (skip !== undefined && skip[d] === 1) continue;
          // positive only: a record that may score above 0 is kept; only a sure one sets the floor
          if (positiveOnly && !(s > -sureJ)) continue;
          ids.push(d);
          scores.push(s);
          if (!positiveOnly || s > sureJ) {
            heap.offer(d, s);
            floor = heap.threshold - lowJ;
          }
        }
      }
    }
    return tile.map((q, j) => {
      const floor = (heaps[j] as TopK).threshold - (low[j] as number);
      const ids = kept[j] as number[];
      const scores = keptScore[j] as number[];
      const exact = new TopK(k);
      const qNorm = qNorms[j] as number;
      const offer = (d: number) => {
        const c = this.cosine(q, qNorm, d);
        if (!(positiveOnly && !(c > 0))) exact.offer(d, c);
      };
      for (let i = 0; i < ids.length; i++) if ((scores[i] as number) >= floor) offer(ids[i] as number);
      for (const d of always) if (exclude === undefined || exclude[d] !== 1) offer(d);
      return exact.drain();
    });
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
