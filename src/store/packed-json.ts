import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Observations and reports are most of a history file (a 10k x 5 run was ~80 MB as text): they are
 * kept deflated, ~3x smaller, as BLOBs in the same columns. Rows written as text by older versions
 * are still read as they are. Level 1: on rgate's observations it deflates about twice as fast as
 * level 6 for 3% more bytes (2.24x against 2.31x smaller), and it runs once per request.
 */
export function packJson(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value), { level: 1 });
}

export function unpackJson(stored: string | Buffer): unknown {
  return JSON.parse(typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8'));
}
