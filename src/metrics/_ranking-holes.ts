/**
 * The judgment holes of a ranking measure: the unjudged documents within its depth (the cutoff of
 * P.5, ndcg_cut.10, recall.10, map_cut.10 ...; the whole ranking for map, ndcg, recip_rank ...) of
 * replay 1's rankings as trec_eval orders them, and the measure scored again, by the code the
 * run's figure comes from, with every such document graded not relevant (0) and with every one
 * relevant at the set's top grade. Only queries the measure scores (with qrels) have holes: a query
 * with no qrels is outside its population.
 */
import { compareCodeUnits } from '../core/canonical-json.js';
import type { KeptRanking, KeptRankings, QueryRecord } from '../documents/index.js';
import { scoredRanking } from './_ranking-scores.js';
import { rescoreRankingMeasures, type RunMeasuresInput } from './_run-measures.js';
import { parseRankingMetricId } from './_spec.js';
import { GateContext, type MeasureInput } from './gate/_context.js';

/** trec_eval measures whose parameters are rank cutoffs: their depth is the largest. */
const CUTOFF_MEASURES = new Set([
  'P',
  'recall',
  'ndcg_cut',
  'map_cut',
  'success',
  'relative_P',
  'judged',
  'unj',
]);

export interface RankingHoleFill {
  metric: string;
  /** the rank cutoff the holes were looked for within; null: the whole ranking */
  depth: number | null;
  /** the grade a relevant fill gives (the set's highest, at least the relevance level) */
  top_grade: number;
  /** the unjudged (query, doc) pairs within the depth, in query then doc id order */
  pairs: { query_id: string; doc_id: string }[];
  /** the measure's mean with every hole graded 0, and graded top_grade (undefined: nothing scored) */
  low: number | undefined;
  high: number | undefined;
}

/** The depth a measure reads of each ranking: its largest cutoff, or null for the whole ranking. */
export function measureDepth(metric: string): number | null {
  const spec = parseRankingMetricId(metric);
  if (!spec || !CUTOFF_MEASURES.has(spec.measure.id)) return null;
  const cutoffs = spec.params as readonly number[];
  return cutoffs.length ? Math.max(...cutoffs) : null;
}

/** trec_eval's order: score descending, ties by docno bytes descending (ids are written as UTF-8). */
function trecOrder(ranked: readonly { id: string; score: number }[]): string[] {
  return ranked
    .map((r) => ({ ...r, bytes: Buffer.from(r.id, 'utf8') }))
    .sort((a, b) => b.score - a.score || Buffer.compare(b.bytes, a.bytes))
    .map((r) => r.id);
}

/** The grade a relevant filling gives: the set's highest, at least the relevance level. */
export function topGrade(queries: readonly QueryRecord[], relevanceLevel: number): number {
  let top = relevanceLevel;
  for (const q of queries) for (const g of Object.values(q.qrels ?? {})) top = Math.max(top, g);
  return top;
}

/** Each ranking metric's holes and its mean with them filled either way (metrics not measured are left out). */
export function rankingHoleFills(input: RunMeasuresInput, metrics: readonly string[]): RankingHoleFill[] {
  const ctx = new GateContext(input);
  const top = topGrade(input.queries, input.relevanceLevel);
  const out: RankingHoleFill[] = [];
  for (const metric of [...new Set(metrics)].sort(compareCodeUnits)) {
    if (!parseRankingMetricId(metric)) continue;
    const depth = measureDepth(metric);
    const holes = new Map<string, string[]>();
    for (const q of ctx.queries) {
      const qrels = q.qrels ?? {};
      if (Object.keys(qrels).length === 0 || !ctx.attempted(q)) continue;
      const o = ctx.first(q);
      if (!o?.ok) continue;
      const order = trecOrder(scoredRanking(o));
      const within = depth === null ? order : order.slice(0, depth);
      const unjudged = within.filter((id) => !Object.hasOwn(qrels, id)).sort(compareCodeUnits);
      if (unjudged.length) holes.set(q.query_id, unjudged);
    }
    const filled =
      (grade: number) =>
      (q: QueryRecord): Readonly<Record<string, number>> | undefined => {
        const h = holes.get(q.query_id);
        if (!h) return q.qrels;
        const qrels = { ...q.qrels };
        for (const id of h) qrels[id] = grade;
        return qrels;
      };
    const meanWith = (grade: number) =>
      rescoreRankingMeasures({ ...input, rankingMeasures: [metric] }, filled(grade)).get(metric)?.mean;
    const pairs = [...holes.keys()]
      .sort(compareCodeUnits)
      .flatMap((query_id) => holes.get(query_id)!.map((doc_id) => ({ query_id, doc_id })));
    out.push({ metric, depth, top_grade: top, pairs, low: meanWith(0), high: meanWith(top) });
  }
  return out;
}

/**
 * The deepest any of `metrics` reads (null: the whole ranking; 0: no ranking measure among them).
 * A ranking kept to this depth in trec_eval's order scores every one of them exactly as the run did:
 * a cutoff measure reads no further, and its denominators come from the qrels, not the ranking.
 */
export function deepestDepth(metrics: readonly string[]): number | null {
  let deepest = 0;
  for (const m of metrics) {
    if (!parseRankingMetricId(m)) continue;
    const d = measureDepth(m);
    if (d === null) return null;
    deepest = Math.max(deepest, d);
  }
  return deepest;
}

/**
 * Replay 1's scored ranking of every query the run asked, cut to `depth` in trec_eval's order (an
 * errored answer keeps an empty list: it scores 0, as it did). What a comparison keeps so its ranking
 * measures can be scored again under other grades (`scoreKeptRankings`).
 */
export function keptRankings(input: MeasureInput, depth: number | null): KeptRankings {
  const ctx = new GateContext(input);
  const out: KeptRankings = {};
  for (const q of ctx.queries) {
    if (!ctx.attempted(q)) continue;
    const o = ctx.first(q);
    const scored = o?.ok ? scoredRanking(o) : [];
    const score = new Map(scored.map((r) => [r.id, r.score]));
    const order = trecOrder(scored);
    const ids = depth === null ? order : order.slice(0, depth);
    out[q.query_id] = { ids, scores: ids.map((id) => score.get(id)!) };
  }
  return out;
}

/** The unjudged documents of a kept ranking within `depth` (those `qrels` do not grade), by id. */
export function unjudgedWithin(
  ranking: Readonly<KeptRanking>,
  depth: number | null,
  qrels: Readonly<Record<string, number>>,
): string[] {
  return (depth === null ? ranking.ids : ranking.ids.slice(0, depth))
    .filter((id) => !Object.hasOwn(qrels, id))
    .sort(compareCodeUnits);
}
