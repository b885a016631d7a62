/**
 * The pairs whose grade could flip a comparison's winner: per ranking measure, the unjudged documents
 * within its depth in any variant's kept ranking (queries with qrels only), every variant's measure
 * scored again with all of them graded 0 and with all of them graded the set's top grade, and the
 * winner named again by the session's own tests and Holm. Exact for those two fillings; a mixed
 * grading is not searched (as for a run's rules, DECISIONS 2026-11-28).
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type { CompareSession, QueryRecord, WinnerHoles } from '../src/documents/index.js';
import { measureDepth, unjudgedWithin } from '../src/metrics/index.js';
import { rankingMetricsOf, variantValuesUnder, winnersUnder } from './compare-rescore.js';

/** The grade a relevant filling gives: the set's highest, at least the relevance level. */
function topGrade(queries: readonly QueryRecord[], relevanceLevel: number): number {
  let top = relevanceLevel;
  for (const q of queries) for (const g of Object.values(q.qrels ?? {})) top = Math.max(top, g);
  return top;
}

/** Per ranking measure the session tested: its holes and its winner with them graded either way. */
export function winnerHoles(session: CompareSession, queries: readonly QueryRecord[]): WinnerHoles[] {
  const level = session.variants[0]!.rankings!.relevance_level;
  const top = topGrade(queries, level);
  const winnerOf = new Map(session.winners.map((w) => [w.metric, w.winner]));
  return rankingMetricsOf(session)
    .sort(compareCodeUnits)
    .map((metric) => {
      const depth = measureDepth(metric);
      const holes = new Map<string, Set<string>>();
      for (const q of queries) {
        const qrels = q.qrels ?? {};
        if (Object.keys(qrels).length === 0) continue;
        for (const v of session.variants) {
          const ranking = v.rankings!.queries[q.query_id];
          if (!ranking) continue;
          for (const id of unjudgedWithin(ranking, depth, qrels))
            (holes.get(q.query_id) ?? holes.set(q.query_id, new Set()).get(q.query_id)!).add(id);
        }
      }
      const filled = (grade: number) => (q: QueryRecord) => {
        const h = holes.get(q.query_id);
        if (!h) return q.qrels;
        const qrels = { ...q.qrels };
        for (const id of h) qrels[id] = grade;
        return qrels;
      };
      const winnerWith = (grade: number) =>
        holes.size === 0
          ? (winnerOf.get(metric) ?? null)
          : (winnersUnder(session, variantValuesUnder(session, queries, filled(grade))).find(
              (w) => w.metric === metric,
            )?.winner ?? null);
      const winner = winnerOf.get(metric) ?? null;
      const with_zero = winnerWith(0);
      const with_top = winnerWith(top);
      const pairs = [...holes.keys()]
        .sort(compareCodeUnits)
        .flatMap((query_id) =>
          [...holes.get(query_id)!].sort(compareCodeUnits).map((doc_id) => ({ query_id, doc_id })),
        );
      return {
        metric,
        depth,
        top_grade: top,
        winner,
        with_zero,
        with_top,
        can_flip: with_zero !== winner || with_top !== winner,
        pairs,
      };
    });
}

/** The pairs of every measure whose winner can flip, once each, in query then doc id order. */
export function winnerFlipPairs(holes: readonly WinnerHoles[]): { query_id: string; doc_id: string }[] {
  const seen = new Map<string, { query_id: string; doc_id: string }>();
  for (const h of holes)
    if (h.can_flip) for (const p of h.pairs) seen.set(`${p.query_id}\u0000${p.doc_id}`, p);
  return [...seen.values()].sort(
    (a, b) => compareCodeUnits(a.query_id, b.query_id) || compareCodeUnits(a.doc_id, b.doc_id),
  );
}
