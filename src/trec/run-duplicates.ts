/**
 * trec_eval stops at a run that retrieves one docno twice for a query; so does rgate, naming both
 * lines. Runs grouped by the WebAssembly scanner come with their first
 * duplicate found (run-scan.ts); the others are checked here, one query at a time.
 */
import { RgateError } from '../core/errors.js';
import { byteStringToText } from './bytes.js';
import { compareRunDocnos, runDocno, type RunQuery, type TrecRun } from './run.js';

/** the hash table of checkDuplicates, kept between queries (grown, never shrunk) */
let dupSlots = new Int32Array(1024);

/** trec_eval refuses a docno retrieved twice for one query; so do we, naming both lines. */
export function duplicateError(
  run: TrecRun,
  q: RunQuery,
  later: number,
  first: number,
  label: string,
): RgateError {
  return new RgateError(
    'input_invalid',
    `${label}:${run.lineOf[later]}: document ${byteStringToText(runDocno(run, later))} retrieved twice for query ${byteStringToText(q.qid)} (first at line ${run.lineOf[first]})`,
    'each (query, document) pair may appear once in a run',
  );
}

/** Throws duplicateError for the first docno query q retrieves twice. */
export function checkDuplicates(run: TrecRun, q: RunQuery, label: string): void {
  const n = q.end - q.start;
  // a quarter full at most: at half full, every other insert probed a second slot, and those
  // unpredictable branches made this check twice as slow (7M results: ~85 -> ~45 ms)
  let size = 16;
  while (size < n * 4) size <<= 1;
  if (dupSlots.length < size) dupSlots = new Int32Array(size);
  const slots = dupSlots;
  slots.fill(0, 0, size);
  const mask = size - 1;
  const { hashes } = run;
  for (let i = q.start; i < q.end; i++) {
    const h = hashes[i] as number;
    let s = h & mask;
    for (;;) {
      const j = (slots[s] as number) - 1;
      if (j < 0) {
        slots[s] = i + 1;
        break;
      }
      if (hashes[j] === h && compareRunDocnos(run, i, j) === 0) {
        throw duplicateError(run, q, i, j, label);
      }
      s = (s + 1) & mask;
    }
  }
}
