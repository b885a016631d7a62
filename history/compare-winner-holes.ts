/**
 * The pairs whose grade could flip a comparison's winner: per ranking measure, the unjudged documents
 * within its depth in any variant's kept ranking (queries with qrels only); per top-1 rate, the
 * unjudged top-1s (compare-top1.ts) unless the session lacks what re-counts the rate; every variant's measure
 * scored again with all of them graded 0 and with all of them graded the set's top grade, and the
 * winner named again by the session's own tests and Holm. Exact for those two fillings; a mixed
 * grading is not searched (as for a run's rules, DECISIONS 2026-11-28).
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type { CompareSession, QueryRecord, WinnerHoles } from '../src/documents/index.js';
import { measureDepth, topGrade, unjudgedWithin } from '../src/metrics/index.js';
import { rankingMetricsOf, valuesUnder, winnersUnder } from './compare-rescore.js';
import { top1Holes, top1MetricsOf } from './compare-top1.js';

/** A measure's holes, query id -> doc ids, as (query, doc) pairs in query then doc id order. */
function pairsOf(holes: Map<string, Set<string>>): { query_id: string; doc_id: string }[] {
  return [...holes.keys()]
    .sort(compareCodeUnits)
    .flatMap((query_id) =>
      [...holes.get(query_id)!].sort(compareCodeUnits).map((doc_id) => ({ query_id, doc_id })),
    );
}

/** The grades with `holes` all graded `grade`. */
function filled(holes: Map<string, Set<string>>, grade: number) {
  return (q: QueryRecord) => {
    const h = holes.get(q.query_id);
    if (!h) return q.qrels;
    const qrels = { ...q.qrels };
    for (const id of h) qrels[id] = grade;
    return qrels;
  };
}

/** Per ranking measure's depth: the unjudged documents within it in any variant's kept ranking. */
function rankingHoles(session: CompareSession, queries: readonly QueryRecord[], depth: number | null) {
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
  return holes;
}

/**
 * Per ranking measure and top-1 rate the session tested: its holes and its winner with them graded
 * either way; `not_rescored`: the top-1 rates whose values the session cannot re-count, with what
 * they need.
 */
export function winnerHoles(
  session: CompareSession,
  queries: readonly QueryRecord[],
): { holes: WinnerHoles[]; not_rescored: { metric: string; needs: string }[] } {
  const level = session.variants[0]!.rankings!.relevance_level;
  const top = topGrade(queries, level);
  const winnerOf = new Map(session.winners.map((w) => [w.metric, w.winner]));
  const measures: { metric: string; depth: number | null; holes: Map<string, Set<string>> }[] = [
    ...rankingMetricsOf(session).map((metric) => ({
      metric,
      depth: measureDepth(metric),
      holes: rankingHoles(session, queries, measureDepth(metric)),
    })),
    ...top1MetricsOf(session).map((metric) => ({ metric, depth: 1, holes: top1Holes(session, queries) })),
  ].sort((a, b) => compareCodeUnits(a.metric, b.metric));
  const not_rescored: { metric: string; needs: string }[] = [];
  const holes = measures.flatMap(({ metric, depth, holes }) => {
    const winner = winnerOf.get(metric) ?? null;
    let ends: [string | null, string | null] = [winner, winner];
    // a top-1 rate is checked even without holes: without what decides a top-1, its holes are not known either
    if (holes.size > 0 || depth === 1) {
      const {
        values,
        rescored,
        not_rescored: out,
      } = valuesUnder(session, queries, [filled(holes, 0), filled(holes, top)]);
      const missing = out.find((n) => n.metric === metric);
      if (missing) {
        not_rescored.push(missing);
        return [];
      }
      const w = (i: number) =>
        winnersUnder(session, values[i]!, rescored).find((x) => x.metric === metric)?.winner ?? null;
      ends = [w(0), w(1)];
    }
    const [with_zero, with_top] = ends;
    return [
      {
        metric,
        depth,
        top_grade: top,
        winner,
        with_zero,
        with_top,
        can_flip: with_zero !== winner || with_top !== winner,
        pairs: pairsOf(holes),
      },
    ];
  });
  return { holes, not_rescored };
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
