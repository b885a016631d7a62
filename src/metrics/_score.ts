import type { TrecEvalJson } from '../documents/index.js';
import { DocTable, inputLabel, readQrelsFile, readRunFile } from '../trec/index.js';
import { evaluateTrec, refuseUnansweredQueries } from './_evaluate.js';
import { trecEvalJson } from './_format.js';
import { parseMeasureArgs } from './_spec.js';

export interface ScoreOptions {
  /** TREC qrels file (`qid 0 docno rel`) */
  qrels: string;
  /** TREC run file (`qid Q0 docno rank score tag`) */
  run: string;
  /** trec_eval measure arguments, e.g. ['map', 'P.5,10', 'ndcg_cut.10']; default the `official` bundle */
  measures?: string[];
  /** -l: grade at or above which a document is relevant (default 1) */
  relevanceLevel?: number;
  /**
   * -c: average over every qrels query, a query missing from the run scoring 0; without it such a
   * query is an input error, as trec_eval 10 stops at it
   */
  averageComplete?: boolean;
  /** -M: depth cap */
  maxDepth?: number;
  /** -q: include per-query values */
  perQuery?: boolean;
}

/**
 * `rgate score --format json`'s numbers (the TrecEvalJson document), with `all` always there and
 * finite: the library always averages (no -n) and a mean over queries is a number
 */
export type ScoreResult = Omit<TrecEvalJson, 'all'> & { all: Record<string, number> };

/**
 * `rgate score` as a function: the same numbers trec_eval prints, as data.
 * Example: score({ qrels: 'qrels.txt', run: 'run.txt', measures: ['map', 'P.30'] }).all.map
 */
export function score(o: ScoreOptions): ScoreResult {
  const { specs } = parseMeasureArgs(o.measures ?? ['official']);
  const qrels = readQrelsFile(o.qrels, new DocTable());
  const run = readRunFile(o.run);
  if (!o.averageComplete)
    refuseUnansweredQueries(qrels, run, { qrels: inputLabel(o.qrels), run: inputLabel(o.run) });
  const result = evaluateTrec(qrels, run, specs, {
    relevanceLevel: o.relevanceLevel ?? 1,
    averageComplete: o.averageComplete ?? false,
    ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}),
  });
  return trecEvalJson(result, { perQuery: o.perQuery ?? false }) as ScoreResult;
}
