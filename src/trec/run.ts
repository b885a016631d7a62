/**
 * A parsed TREC run: flat typed arrays grouped by query, docnos kept as bytes, and the two ways the
 * evaluator reads a docno back.
 */
import { latin1 } from './bytes.js';

/** Ranked results of one query: entries [start, end) of the run's flat arrays, in file order. */
export interface RunQuery {
  qid: string;
  start: number;
  end: number;
}

/**
 * A parsed run. Entries are stored flat and grouped by query; a docno is kept as its bytes in `arena`
 * (offset, length) plus its FNV-1a hash, so 7 million lines make no per-line string. The evaluator
 * looks each hash up in the (small) qrels table and compares arena bytes only to break score ties.
 */
export interface TrecRun {
  /** run id of the last line, as trec_eval reports it */
  runId: string;
  /** qids in order of first appearance */
  qids: string[];
  byQid: Map<string, RunQuery>;
  lines: number;
  scores: Float64Array;
  hashes: Int32Array;
  docOff: Int32Array;
  docLen: Int32Array;
  /** 1-based file line of each entry */
  lineOf: Int32Array;
  arena: Uint8Array;
}

/** The docno of run entry i as a latin1 byte string. */
export function runDocno(run: TrecRun, i: number): string {
  const off = run.docOff[i] as number;
  return latin1(run.arena, off, off + (run.docLen[i] as number));
}

/** Byte-order comparison of the docnos of run entries a and b (strcmp). */
export function compareRunDocnos(run: TrecRun, a: number, b: number): number {
  const arena = run.arena;
  const oa = run.docOff[a] as number;
  const ob = run.docOff[b] as number;
  const la = run.docLen[a] as number;
  const lb = run.docLen[b] as number;
  const n = la < lb ? la : lb;
  for (let k = 0; k < n; k++) {
    const d = (arena[oa + k] as number) - (arena[ob + k] as number);
    if (d !== 0) return d;
  }
  return la - lb;
}
