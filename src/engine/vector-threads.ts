/**
 * How the vector index shares a batched top-k with worker threads (vector-topk-worker.ts): the
 * index's WebAssembly memory is shared, so a worker reads the records where the index wrote them;
 * per call, the queries, the filter and the results travel in SharedArrayBuffers, and each thread
 * claims the next tile of queries from one atomic counter until none is left. Each tile's hits go to
 * its own place in the results, so what comes back does not depend on which thread ran a tile.
 *
 * A worker that has not started when the index's thread runs out of tiles is cancelled (it finds
 * its state taken and does nothing), so a worker that is slow to start, or cannot start, never
 * makes a call wait; a worker that started is waited for.
 */
import {
  TILE32,
  twoPassTile,
  type PassArea,
  type PassIndex,
  type VectorFilter,
  type VectorHit,
} from './vector-two-pass.js';

/** What a worker is given once: the compiled kernel, the shared memory and where things are in it. */
export interface WorkerSetup {
  module: object;
  memory: object;
  count: number;
  dims: number;
  normsOff: number;
  invOff: number;
  /** this worker's scratch: byte offsets of its f32 query area and dots */
  qOff: number;
  outOff: number;
  /** this worker's slot in each call's control block */
  slot: number;
}

/** One call: every tile of it, for whichever thread claims it. */
export interface TopKJob {
  /** nq queries of dims f32 */
  queries: Float32Array;
  nq: number;
  k: number;
  exclude?: Uint8Array;
  positiveOnly: boolean;
  always: number[];
  /**
   * [0] the next tile to claim; then per worker slot i: [1 + 3i] its state (0 not started, 1
   * started, 2 cancelled), [2 + 3i] 1 when it is done, [3 + 3i] the tiles it ran; the last: 1 when
   * a worker failed
   */
  control: Int32Array;
  /** per query: its hit count at [q], its hits at [q * k, q * k + count) */
  counts: Int32Array;
  docs: Int32Array;
  scores: Float64Array;
}

export const stateAt = (slot: number): number => 1 + 3 * slot;
export const doneAt = (slot: number): number => 2 + 3 * slot;
export const tilesAt = (slot: number): number => 3 + 3 * slot;
export const controlLength = (workers: number): number => 2 + 3 * workers;

/** A new call's shared blocks. */
export function newJob(
  queries: readonly Float32Array[],
  dims: number,
  k: number,
  filter: VectorFilter,
  always: number[],
  workers: number,
): TopKJob {
  const nq = queries.length;
  const shared = new Float32Array(new SharedArrayBuffer(nq * dims * 4));
  queries.forEach((q, j) => shared.set(q, j * dims));
  let exclude: Uint8Array | undefined;
  if (filter.exclude) {
    exclude = new Uint8Array(new SharedArrayBuffer(filter.exclude.length));
    exclude.set(filter.exclude);
  }
  return {
    queries: shared,
    nq,
    k,
    ...(exclude ? { exclude } : {}),
    positiveOnly: filter.positiveOnly === true,
    always,
    control: new Int32Array(new SharedArrayBuffer(4 * controlLength(workers))),
    counts: new Int32Array(new SharedArrayBuffer(4 * nq)),
    docs: new Int32Array(new SharedArrayBuffer(4 * nq * k)),
    scores: new Float64Array(new SharedArrayBuffer(8 * nq * k)),
  };
}

/** Claim tiles until none is left, writing each one's hits to the job's results; how many it ran. */
export function runTiles(ix: PassIndex, area: PassArea, job: TopKJob): number {
  let ran = 0;
  const dims = ix.dims;
  const tiles = Math.ceil(job.nq / TILE32);
  const filter: VectorFilter = {
    ...(job.exclude ? { exclude: job.exclude } : {}),
    positiveOnly: job.positiveOnly,
  };
  for (let t = Atomics.add(job.control, 0, 1); t < tiles; t = Atomics.add(job.control, 0, 1)) {
    ran++;
    const first = t * TILE32;
    const tile: Float32Array[] = [];
    for (let j = first; j < Math.min(job.nq, first + TILE32); j++)
      tile.push(job.queries.subarray(j * dims, (j + 1) * dims));
    twoPassTile(ix, area, tile, job.k, filter, job.always).forEach((hits, i) => {
      const q = first + i;
      job.counts[q] = hits.length;
      hits.forEach((h, n) => {
        job.docs[q * job.k + n] = h.doc;
        job.scores[q * job.k + n] = h.score;
      });
    });
  }
  return ran;
}

/** The job's hits, per query. */
export function hitsOf(job: TopKJob): VectorHit[][] {
  return Array.from({ length: job.nq }, (_, q) =>
    Array.from({ length: job.counts[q] as number }, (_, n) => ({
      doc: job.docs[q * job.k + n] as number,
      score: job.scores[q * job.k + n] as number,
    })),
  );
}
