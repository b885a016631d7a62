/**
 * How the vector index shares a batched top-k with worker threads (vector-topk-worker.ts): the
 * index's WebAssembly memory is shared, so a worker reads the records where the index wrote them;
 * per call, the queries, the filter and the results travel in SharedArrayBuffers, and each thread
 * claims the next tile of queries from one atomic counter until none is left. Each tile's hits go to
 * its own place in the results, so what comes back does not depend on which thread ran a tile.
 *
 * A worker that has not started when the index's thread runs out of tiles is cancelled (it finds
 * its state taken and does nothing), so a worker that is slow to start, or cannot start, never
 * makes a call wait; a worker that started is waited for while it shows progress. The tiles a
 * worker did not finish (it threw, or stopped showing progress) are run by the index's thread.
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
   * started, 2 cancelled), [2 + 3i] 1 when it is done, [3 + 3i] the tiles it has run so far (its
   * sign of life); the last: 1 when a worker failed
   */
  control: Int32Array;
  /** per query: its hit count at [q] (-1 until its tile is done), its hits at [q * k, q * k + count) */
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
    counts: new Int32Array(new SharedArrayBuffer(4 * nq)).fill(-1),
    docs: new Int32Array(new SharedArrayBuffer(4 * nq * k)),
    scores: new Float64Array(new SharedArrayBuffer(8 * nq * k)),
  };
}

/**
 * Claim tiles until none is left, writing each one's hits to the job's results; how many it ran.
 * `progress`: the control slot where each tile run is counted as it ends (a worker's sign of life).
 */
export function runTiles(ix: PassIndex, area: PassArea, job: TopKJob, progress?: number): number {
  let ran = 0;
  const tiles = Math.ceil(job.nq / TILE32);
  for (let t = Atomics.add(job.control, 0, 1); t < tiles; t = Atomics.add(job.control, 0, 1)) {
    runTile(ix, area, job, t);
    ran++;
    if (progress !== undefined) Atomics.add(job.control, progress, 1);
  }
  return ran;
}

/** The tiles a worker claimed and never finished (it failed or died): a query's count still -1. */
export function unfinishedTiles(job: TopKJob): number[] {
  const tiles = new Set<number>();
  for (let q = 0; q < job.nq; q++) if (Atomics.load(job.counts, q) < 0) tiles.add(Math.floor(q / TILE32));
  return [...tiles].sort((a, b) => a - b);
}

/** Tile t of the job: its queries' hits into the results. */
export function runTile(ix: PassIndex, area: PassArea, job: TopKJob, t: number): void {
  const dims = ix.dims;
  const filter: VectorFilter = {
    ...(job.exclude ? { exclude: job.exclude } : {}),
    positiveOnly: job.positiveOnly,
  };
  const first = t * TILE32;
  const tile: Float32Array[] = [];
  for (let j = first; j < Math.min(job.nq, first + TILE32); j++)
    tile.push(job.queries.subarray(j * dims, (j + 1) * dims));
  twoPassTile(ix, area, tile, job.k, filter, job.always).forEach((hits, i) => {
    const q = first + i;
    hits.forEach((h, n) => {
      job.docs[q * job.k + n] = h.doc;
      job.scores[q * job.k + n] = h.score;
    });
    // the count last: a count of -1 means the query's tile is not done (unfinishedTiles)
    Atomics.store(job.counts, q, hits.length);
  });
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
