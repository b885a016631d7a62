/**
 * A run file grouped by query (each query's lines together, as runs are written), read query by
 * query: each query is handed over as soon as its last line is read and then forgotten, so the
 * run's 7 million lines never sit in memory at once. On this kind of machine writing fresh memory is
 * what reading a large run mostly cost (about 4 ms of CPU a MiB, page faults: ~250 MiB of arrays for
 * 7 million results), and a buffer a chunk large is written again and again instead.
 */
import { closeSync, openSync, statSync } from 'node:fs';
import { CR, latin1, NL, sameRange, SP, TAB } from './bytes.js';
import { closeInput, emptyInputError, openInput } from './input.js';
import type { RunQuery, TrecRun } from './run.js';
import { CHUNK_ARENA, CHUNK_ENTRIES, feedRange, READ_CHUNK_BYTES, readSample } from './run-chunks.js';
import { checkDuplicates } from './run-duplicates.js';
import { RunBuilder } from './run-parse.js';

/** What a streamed run leaves behind: what the evaluation needs once every query has been seen. */
export interface StreamedRun {
  /** run id of the last line, as trec_eval reports it */
  runId: string;
  /** the run's queries (latin1 byte strings) */
  byQid: ReadonlySet<string>;
}

/** Thrown through feedRange when a query's lines come back after another query's. */
class NotGrouped extends Error {}

/**
 * Is `path` a regular file of at least `minBytes` whose first MiB has each query's lines together?
 * False on any error: the ordinary reader then reports it.
 */
export function groupedRunFile(path: string, minBytes: number): boolean {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size < minBytes) return false;
    const fd = openSync(path, 'r');
    try {
      return runLooksGrouped(fd, st.size);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * Does the file's first MiB have each query's lines together? A cheap look before deciding to read
 * the run query by query (a shuffled run changes back within a few lines).
 */
function runLooksGrouped(fd: number, size: number): boolean {
  const sample = readSample(fd, size);
  const got = sample.length;
  const seen = new Set<string>();
  // the previous line's qid as a range of the sample: a string is made only when the qid changes
  let ps = 0;
  let pe = 0;
  let i = 0;
  while (i < got) {
    const e = sample.indexOf(NL, i);
    if (e < 0) break; // a cut line: the rest is not looked at
    let s = i;
    while (s < e && (sample[s] === SP || sample[s] === TAB || sample[s] === CR)) s++;
    let f = s;
    while (f < e && sample[f] !== SP && sample[f] !== TAB && sample[f] !== CR) f++;
    if (f > s && sample[s] !== 35 /* # */) {
      if (f - s !== pe - ps || !sameRange(sample, s, ps, f - s)) {
        const qid = latin1(sample, s, f);
        if (seen.has(qid)) return false;
        seen.add(qid);
        ps = s;
        pe = f;
      }
    }
    i = e + 1;
  }
  return true;
}

/**
 * Read a regular run file query by query, calling onQuery(run, rq) for each query in file order;
 * rq's entries are in `run`'s arrays only during the call. Undefined (after some queries were
 * handed over) when a query's lines are not together: the caller reads the file whole instead.
 * Errors are those of reading it whole: the first bad line, else the first query (in order of first
 * appearance) retrieving a docno twice, else an empty run.
 */
export function streamRun(
  path: string,
  label: string,
  onQuery: (run: TrecRun, rq: RunQuery) => void,
): StreamedRun | undefined {
  const input = openInput(path, label);
  if (input.kind !== 'file') {
    closeInput(input);
    return undefined;
  }
  const b = new RunBuilder(input.label, CHUNK_ENTRIES, CHUNK_ARENA);
  let done = new Uint8Array(1024);
  let open = -1;
  let openStart = 0;
  const answered = new Set<string>();
  // a duplicate is reported only when no line of the file is bad (reading it whole checks after)
  let duplicate: unknown;
  const close = (run: TrecRun, end: number): void => {
    const rq: RunQuery = { qid: b.qids[open]!, start: openStart, end };
    answered.add(rq.qid);
    if (duplicate !== undefined) return;
    try {
      checkDuplicates(run, rq, input.label);
    } catch (e) {
      duplicate = e;
      return;
    }
    onQuery(run, rq);
  };
  try {
    feedRange(
      {
        feed(buf, end) {
          const from = b.entries;
          b.feed(buf, end);
          const run = b.entriesView();
          const to = b.entries;
          for (let e = from; e < to; e++) {
            const q = b.qidOf(e);
            if (q === open) continue;
            if (open >= 0) {
              close(run, e);
              done[open] = 1;
            }
            if (q >= done.length) {
              const more = new Uint8Array(Math.max(q + 1, done.length * 2));
              more.set(done);
              done = more;
            }
            if (done[q] === 1) throw new NotGrouped();
            open = q;
            openStart = e;
          }
          b.dropBefore(openStart);
          openStart = 0;
        },
      },
      input.fd,
      0,
      input.size,
      READ_CHUNK_BYTES,
    );
  } catch (e) {
    if (e instanceof NotGrouped) return undefined;
    throw e;
  } finally {
    closeInput(input);
  }
  if (open >= 0) close(b.entriesView(), b.entries);
  if (duplicate !== undefined) throw duplicate;
  if (answered.size === 0) throw emptyInputError(input.label, input.size, 'results');
  return { runId: b.runId, byQid: answered };
}
