import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  deflateRawSync,
  inflateRawSync,
} from 'node:zlib';
import { unpackedReport } from '../contracts/report.js';
import { packReport } from '../core/packed-report.js';
import { PACKED_MIN_QUERIES, REPORT_SCHEMA_VERSION, type Report } from '../documents/index.js';

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

/**
 * A run's report as the store keeps it: a report of more than PACKED_MIN_QUERIES queries packed as
 * columns first (src/core/packed-report.ts, as report.json is), which brotli then has less to find:
 * a 10,000-query report 1.24 MB stored whole, 0.86 MB packed. Anything else is kept as it is.
 */
export function packStoredReport(report: unknown): Buffer {
  const r = report as Partial<Report> | null;
  let kept: unknown = report;
  if (
    r &&
    r.schema_version === REPORT_SCHEMA_VERSION &&
    Array.isArray(r.queries) &&
    r.queries.length > PACKED_MIN_QUERIES
  ) {
    try {
      kept = packReport(r as Report) ?? report;
    } catch {
      // not a report's shape after all: kept whole, and its readers refuse it as they would have
    }
  }
  return packLargeJson(kept);
}

/** A stored report as the report it holds (a packed one unpacked; a damaged one left for its reader to refuse). */
export function unpackStoredReport(stored: unknown): unknown {
  try {
    return unpackedReport(stored);
  } catch {
    return stored;
  }
}

export function unpackJson(stored: string | Buffer): unknown {
  if (typeof stored === 'string') return JSON.parse(stored);
  const text = stored[0] === BROTLI_MARK ? brotliDecompressSync(stored.subarray(1)) : inflateRawSync(stored);
  return JSON.parse(text.toString('utf8'));
}
