/**
 * TREC qrels and run files, read at the byte level and written back.
 *
 * Why bytes: a 7,000-query x 1,000-document run has 7 million lines; a split/readline parser allocates
 * several strings per line and is ~5x slower. Here a line is scanned once, docnos are interned by
 * hashing their bytes (no string is made for a docno seen before), and scores are parsed from digits.
 */
export { byteStringToText, parseDecimal } from './bytes.js';
export { DocTable } from './doc-table.js';
export { inputLabel, STDIN } from './input.js';
export { parseQrels, qrelsFromEntries, readQrelsFile, type Qrels, type QrelsQuery } from './qrels-read.js';
export { compareRunDocnos, runDocno, type RunQuery, type TrecRun } from './run.js';
export { judgedOnly } from './judged-only.js';
export {
  parseRun,
  readRunFile,
  runFromRows,
  startRunRead,
  startSegmentedRunRead,
  type RunReading,
  type SegmentedRunReading,
} from './run-read.js';
export { SegmentedRun } from './run-segments.js';
export { groupedRunFile, streamRun, type StreamedRun } from './run-stream.js';
export { writeRun, type TrecRunLine } from './write.js';
