import { ORDER_IS_RANK_CONTRACTS } from '../documents/index.js';

/**
 * The score a ranked item gets where rgate scores a ranking the way trec_eval does (score desc, ties by
 * docno): the ranking measures and the TREC run a run writes. Most contracts order their list by the
 * score they report, so that score is used. Some answer with order as the rank and scores that need
 * not follow it: memory-cli-v1 prints candidates in rank order with per-signal confidences (a
 * path-priority fallback answers every candidate at confidence 0), resolved-intent ranks by `kbUnits`
 * order. There the score is the position (n - index), so trec_eval-style scoring keeps the system's
 * own order instead of re-sorting ties by document id.
 */
export function rankingScores(o: {
  ranked: readonly { score: number }[];
  contract: { name: string };
}): number[] {
  const n = o.ranked.length;
  return ORDER_IS_RANK_CONTRACTS.includes(o.contract.name)
    ? o.ranked.map((_, i) => n - i)
    : o.ranked.map((r) => r.score);
}

/**
 * The ranking as rgate scores it, one entry per id: a repeated id (a contract violation) keeps its
 * first position and that position's score, as a TREC run file must (trec_eval refuses a document
 * retrieved twice for a query). The ranking measures and the TREC run a run writes both read this.
 */
export function scoredRanking(o: {
  ranked: readonly { id: string; score: number }[];
  contract: { name: string };
}): { id: string; score: number }[] {
  const scores = rankingScores(o);
  const seen = new Set<string>();
  const out: { id: string; score: number }[] = [];
  o.ranked.forEach((r, i) => {
    if (seen.has(r.id)) return;
    seen.add(r.id);
    out.push({ id: r.id, score: scores[i]! });
  });
  return out;
}
