import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  deflateRawSync,
  inflateRawSync,
} from 'node:zlib';

/**
 * Observations and reports are most of a history file (a 10k x 5 run was ~80 MB as text): they are
 * kept deflated, ~3x smaller, as BLOBs in the same columns. Rows written as text by older versions
 * are still read as they are. Level 1: on rgate's observations it deflates about twice as fast as
 * level 6 for 3% more bytes (2.24x against 2.31x smaller), and it runs once per request.
 */
export function packJson(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value), { level: 1 });
}

/**
 * The first byte of a document packed with brotli (packLargeJson). A raw deflate stream never starts
 * with it: its low three bits would declare a block of the reserved type 3.
 */
const BROTLI_MARK = 0xff;

/**
 * A run's report, packed once per run: brotli with a 16 MiB window finds what deflate's 32 KiB
 * cannot, the failing queries repeated from the query list megabytes earlier (a 10k-query report:
 * 1.75 MB deflated, 1.28 MB so, in about the same time at quality 5).
 */
export function packLargeJson(value: unknown): Buffer {
  const text = JSON.stringify(value);
  const packed = brotliCompressSync(text, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  });
  return Buffer.concat([Buffer.of(BROTLI_MARK), packed]);
}

export function unpackJson(stored: string | Buffer): unknown {
  if (typeof stored === 'string') return JSON.parse(stored);
  const text = stored[0] === BROTLI_MARK ? brotliDecompressSync(stored.subarray(1)) : inflateRawSync(stored);
  return JSON.parse(text.toString('utf8'));
}
