/**
 * Worker thread for readRunFile: parses the second half of a large run into the shared arrays the
 * main thread allocated, posts what it found, then raises a flag the main thread waits on
 * (1 = running, 2 = reply posted).
 */
import { closeSync, openSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { CHUNK_ARENA, CHUNK_ENTRIES, feedRange } from './run-chunks.js';
import { RunBuilder } from './run-parse.js';
import { RegionFull, type RunStorage } from './run-storage.js';
import type { WorkerJob, WorkerReply } from './run-read.js';
import { ChunkGrouper, type SegmentStore } from './run-segments.js';

const job = workerData as WorkerJob;
// running: from now on the main thread waits for the reply instead of giving up on a silent worker
Atomics.store(job.flag, 0, 1);
Atomics.notify(job.flag, 0);
let reply: WorkerReply;
try {
  const fd = openSync(job.path, 'r');
  try {
    if (job.segmented) {
      // parser buffers a chunk large, each chunk's results moved to the store by query (run-segments.ts)
      const b = new RunBuilder(job.label, CHUNK_ENTRIES, CHUNK_ARENA);
      const g = new ChunkGrouper(b, job.storage as SegmentStore, {
        base: job.arenaBase,
        limit: job.arenaLimit,
      });
      feedRange(g, fd, job.start, job.end);
      g.flush();
      reply = { kind: 'ok', result: b.regionResult(), segments: g.segments() };
    } else {
      const { entryBase, entryLimit, arenaBase, arenaLimit } = job;
      const storage = job.storage as RunStorage;
      const b = new RunBuilder(job.label, 0, 0, { storage, entryBase, entryLimit, arenaBase, arenaLimit });
      feedRange(b, fd, job.start, job.end);
      reply = { kind: 'ok', result: b.regionResult() };
    }
  } finally {
    closeSync(fd);
  }
} catch (e) {
  if (e instanceof RegionFull) reply = { kind: 'full' };
  else if (e && typeof e === 'object' && 'line' in e && 'what' in e) {
    const err = e as { line: number; what: string; hint?: string };
    reply = { kind: 'input', line: err.line, what: err.what, hint: err.hint ?? '' };
  } else reply = { kind: 'crash', message: String(e) };
}
job.port.postMessage(reply);
Atomics.store(job.flag, 0, 2);
Atomics.notify(job.flag, 0);
