/**
 * The vector index's batched top-k shared with worker threads (src/engine/vector-threads.ts), as the
 * compiled package runs it: the worker entry is a file of dist/, so this test loads the index from
 * there. Whichever thread runs a tile, the hits are the brute force's, bit for bit; and a worker
 * that is running takes its share.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPrng } from '../src/core/prng.js';
import type * as Index from '../src/engine/vector-index.js';
import { REPO } from './helpers/dist.js';

const dist = (await import(
  pathToFileURL(join(REPO, 'dist', 'src', 'engine', 'vector-index.js')).href
)) as typeof Index;

function unit(rnd: ReturnType<typeof createPrng>, dims: number): Float32Array {
  const v = Float32Array.from({ length: dims }, () => rnd.next() - 0.5);
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

describe('VectorIndex.topKMany on worker threads (dist)', () => {
  it('gives the hits of one thread, with the workers taking tiles', async () => {
    const rnd = createPrng(7);
    const dims = 96;
    const count = 3000;
    const vi = new dist.VectorIndex(count, dims);
    const rows = Array.from({ length: count }, () => unit(rnd, dims));
    rows.forEach((r, d) => vi.setRow(d, r));
    const queries = Array.from({ length: 64 * 24 + 5 }, () => unit(rnd, dims));
    const exclude = new Uint8Array(count).map((_, d) => (d % 13 === 0 ? 1 : 0));
    // one thread: the batch is below the threshold
    dist.shareVectorBatchesFrom(Infinity);
    const alone = vi.topKMany(queries, 10, { exclude });
    expect(vi.lastBatch.byWorkers).toBe(0);
    dist.shareVectorBatchesFrom(0);
    try {
      let byWorkers = 0;
      // the first call starts the workers (a worker not started in time is cancelled); then they take tiles
      for (let call = 0; call < 4; call++) {
        const shared = vi.topKMany(queries, 10, { exclude });
        expect(shared).toEqual(alone);
        const same = shared.every((hits, j) => hits.every((h, i) => Object.is(h.score, alone[j]![i]!.score)));
        expect(same).toBe(true);
        byWorkers += vi.lastBatch.byWorkers;
        if (call === 0) await new Promise((r) => setTimeout(r, 200));
      }
      if (availableParallelism() > 1) expect(byWorkers).toBeGreaterThan(0);
    } finally {
      dist.shareVectorBatchesFrom(2e9);
    }
  }, 60_000);
});
