/**
 * What a run's parse writes into and hands between threads: the flat arrays, a region's result,
 * and the signal that a region overflowed (RunBuilder fills them; run-read.ts splits a file over them).
 */
/** The flat arrays a run is parsed into (shared between threads when the file is split). */
export interface RunStorage {
  qidIdx: Int32Array;
  hashes: Int32Array;
  docOff: Int32Array;
  docLen: Int32Array;
  scores: Float64Array;
  lineOf: Int32Array;
  arena: Uint8Array;
}

export interface RegionResult {
  /** absolute index one past the region's last entry */
  end: number;
  arenaEnd: number;
  /** the region's queries in first-appearance order (its entries' qidIdx index this list) */
  qids: string[];
  runId: string;
  lines: number;
}

/** A region of shared storage overflowed its estimate: parse on one thread instead. */
export class RegionFull extends Error {
  constructor() {
    super('run region full');
  }
}
