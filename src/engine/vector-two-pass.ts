/**
 * The first pass of the vector index's batched top-k (vector-index.ts `topKMany`), one tile of up to
 * 64 queries at a time, as the index's own thread and its worker threads (vector-topk-worker.ts) run
 * it over the same shared memory: approximate f32 dots (the WebAssembly `dots32` kernel) keep every
 * record that could be in a query's top k, then those are scored exactly.
 *
 * Why this loses no hit: for query q let m = the margin times |q| (it bounds |approximate - exact| of
 * dot / |record|), T the k-th best approximate score among eligible records. k records score at
 * least T - m exactly; a record dropped scored below T - 2m - slack approximately, so below T - m -
 * slack exactly: never in the top k, and never tied with one. The exact scores are `cosineOf`'s, the
 * engine's in-order f64 sum, bit for bit, and the hits go through the TopK heap under the engine's
 * total order (score desc, record asc).
 */
import { TopK } from './top-k.js';

export interface VectorHit {
  doc: number;
  score: number;
}

/** Which records may be hits: `exclude[d] === 1` never; `positiveOnly`: a cosine <= 0 never. */
export interface VectorFilter {
  exclude?: Uint8Array;
  positiveOnly?: boolean;
}

/** records per kernel call: a tile's dots (64 x 1,024 f32, and the exact kernel's 32 x 1,024 f64) stay in L2 */
export const CHUNK = 1024;
/** queries per tile of the f32 pass: its f32 query area is the exact tile's f64 one (32 queries) */
export const TILE32 = 64;

/**
 * Whether a value keeps the f32 first pass's bound: 0, or a magnitude in [2^-50, 2^50], so that
 * every product is a normal f32 and no sum of up to 2^20 of them overflows. Embeddings always are;
 * a record that is not is scored exactly whatever its approximate dot, a query that is not takes the
 * exact kernel.
 */
export function inF32Range(x: number): boolean {
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

/** The index as one thread sees it: the kernel and views of the shared memory. */
export interface PassIndex {
  count: number;
  dims: number;
  /** record d's f32 row at [d * dims, (d + 1) * dims) */
  data: Float32Array;
  norms: Float64Array;
  /** 1 / norm (0 for a zero record) */
  invNorms: Float64Array;
  dots32(rec: number, count: number, dims: number, qt: number, groups: number, out: number): void;
}

/** One thread's scratch in the shared memory: byte offsets, and f32 views of them. */
export interface PassArea {
  qOff: number;
  outOff: number;
  qt: Float32Array;
  out: Float32Array;
}

/** The engine's cosine of record d with q (qNorm = the f64 norm of q): an f64 sum in element order. */
export function cosineOf(
  ix: Pick<PassIndex, 'data' | 'norms' | 'dims'>,
  q: Float32Array,
  qNorm: number,
  d: number,
): number {
  const dn = ix.norms[d] as number;
  if (dn === 0 || qNorm === 0) return 0;
  const data = ix.data;
  const base = d * ix.dims;
  let dot = 0;
  for (let i = 0; i < ix.dims; i++) dot += (data[base + i] as number) * (q[i] as number);
  return dot / (dn * qNorm);
}

/** the norm of a vector, summed in f64 as the records' are */
export function normOf(q: Float32Array): number {
  let n = 0;
  for (let i = 0; i < q.length; i++) n += (q[i] as number) * (q[i] as number);
  return Math.sqrt(n);
}

/**
 * Exact top-k of each query of `tile` (at most TILE32, every value in f32 range). `always`: records
 * out of range, ascending: scored exactly whatever their approximate dot.
 */
export function twoPassTile(
  ix: PassIndex,
  area: PassArea,
  tile: readonly Float32Array[],
  k: number,
  filter: VectorFilter,
  always: readonly number[],
): VectorHit[][] {
  const dims = ix.dims;
  const { qt, out } = area;
  const groups = Math.ceil(tile.length / 8);
  const nq = groups * 8;
  // group g, element i: queries 8g..8g+7 side by side
  qt.fill(0, 0, nq * dims);
  tile.forEach((q, j) => {
    const base = (j >> 3) * dims * 8 + (j & 7);
    for (let i = 0; i < dims; i++) qt[base + i * 8] = q[i] as number;
  });
  const qNorms = tile.map(normOf);
  const margin = f32Margin(dims);
  // what a query may drop: below its k-th best approximate score minus `low`
  const low = qNorms.map((n) => 2 * margin * n + 1e-12 * n);
  const sure = qNorms.map((n) => margin * n);
  const heaps = tile.map(() => new TopK(k));
  const kept: number[][] = tile.map(() => []);
  const keptScore: number[][] = tile.map(() => []);
  const inv = ix.invNorms;
  const exclude = filter.exclude;
  const positiveOnly = filter.positiveOnly === true;
  // out of range: its approximate dot means nothing, it is scored exactly (and sets no floor)
  const skip = always.length > 0 ? new Uint8Array(ix.count) : undefined;
  for (const d of always) (skip as Uint8Array)[d] = 1;
  for (let c0 = 0; c0 < ix.count; c0 += CHUNK) {
    const cc = Math.min(CHUNK, ix.count - c0);
    ix.dots32(c0 * dims * 4, Math.ceil(cc / 4) * 4, dims, area.qOff, groups, area.outOff);
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
      const c = cosineOf(ix, q, qNorm, d);
      if (!(positiveOnly && !(c > 0))) exact.offer(d, c);
    };
    for (let i = 0; i < ids.length; i++) if ((scores[i] as number) >= floor) offer(ids[i] as number);
    for (const d of always) if (exclude === undefined || exclude[d] !== 1) offer(d);
    return exact.drain();
  });
}
