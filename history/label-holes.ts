/**
 * How much of a ranking the qrels do not cover: per k, the documents in the top k that the query's
 * qrels do not judge. trec_eval's `judged` averages the judged share per query; a reviewer deciding
 * whether a comparison rests on holes wants the count, so this counts.
 */
import type { JudgmentHoles, QueryRecord } from '../src/documents/index.js';

/** The cutoffs a comparison reports holes at (the labeling queue's default k, and the gate's judged@10). */
export const HOLE_CUTOFFS: readonly number[] = [5, 10];

/** Whether the query's qrels judge `docId` (any grade, 0 included). */
export function isJudged(q: QueryRecord, docId: string): boolean {
  return q.qrels !== undefined && Object.hasOwn(q.qrels, docId);
}

/** Queries with at least one qrels entry: the only ones trec_eval measures, and so the only ones with holes. */
export function hasQrels(q: QueryRecord): boolean {
  return q.qrels !== undefined && Object.keys(q.qrels).length > 0;
}

/**
 * Unjudged documents in the top k of one ranking per query (query id -> ranked ids), over the
 * queries that have qrels. A query the ranking lacks counts as an empty ranking (no holes, no
 * positions): an errored answer is a different problem, reported elsewhere.
 */
export function judgmentHoles(
  topIds: Readonly<Record<string, readonly string[]>>,
  queries: readonly QueryRecord[],
  cutoffs: readonly number[] = HOLE_CUTOFFS,
): JudgmentHoles[] {
  const judged = queries.filter(hasQrels);
  return cutoffs.map((k) => {
    let ranked = 0;
    let unjudged = 0;
    let withHoles = 0;
    for (const q of judged) {
      const top = (topIds[q.query_id] ?? []).slice(0, k);
      ranked += top.length;
      const holes = top.filter((d) => !isJudged(q, d)).length;
      unjudged += holes;
      if (holes > 0) withHoles++;
    }
    return { k, queries: judged.length, ranked, unjudged, queries_with_unjudged: withHoles };
  });
}
