/**
 * A worker thread of the vector index's batched top-k (vector-threads.ts): it instantiates the
 * kernel over the index's shared memory once, then, for each call posted to it, claims tiles of
 * queries until none is left, unless the index's thread has already cancelled it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { doneAt, runTiles, stateAt, tilesAt, type TopKJob, type WorkerSetup } from './vector-threads.js';
import { CHUNK, TILE32, type PassArea, type PassIndex } from './vector-two-pass.js';

interface WasmApi {
  Instance: new (module: object, imports: object) => { exports: object };
  Memory: { prototype: object };
}
const setup = workerData as WorkerSetup;
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
const exports = new wasm.Instance(setup.module, { env: { memory: setup.memory } }).exports as {
  dots32: PassIndex['dots32'];
};
const buffer = (setup.memory as { buffer: SharedArrayBuffer }).buffer;
const ix: PassIndex = {
  count: setup.count,
  dims: setup.dims,
  data: new Float32Array(buffer, 0, setup.count * setup.dims),
  norms: new Float64Array(buffer, setup.normsOff, setup.count),
  invNorms: new Float64Array(buffer, setup.invOff, setup.count),
  dots32: exports.dots32,
};
const area: PassArea = {
  qOff: setup.qOff,
  outOff: setup.outOff,
  qt: new Float32Array(buffer, setup.qOff, TILE32 * setup.dims),
  out: new Float32Array(buffer, setup.outOff, TILE32 * CHUNK),
};

parentPort?.on('message', (job: TopKJob) => {
  // the index's thread may have finished every tile and cancelled this worker already
  if (Atomics.compareExchange(job.control, stateAt(setup.slot), 0, 1) !== 0) return;
  try {
    runTiles(ix, area, job, tilesAt(setup.slot));
  } catch {
    Atomics.store(job.control, job.control.length - 1, 1);
  } finally {
    Atomics.store(job.control, doneAt(setup.slot), 1);
    Atomics.notify(job.control, doneAt(setup.slot));
  }
});
