import type { MetricEntry, Observation, PeerFigure, QueryRecord, Report } from '../src/documents/index.js';
import { cortexPhase2Figures } from '../src/metrics/peer/cortex-phase2.js';

const CORTEX_WHY =
  'The harness judges each returned entry by rule on the answer text (signals, tags, query overlap) ' +
  'and takes its ideal from the returned list itself, so a list of uniformly poor entries can score 1, ' +
  'and it reports the median; ndcg_cut.5 uses the set’s qrels, an ideal from every judged document, ' +
  'trec_eval’s linear gain and ties broken by document id, and reports the mean.';

/**
 * Figures the system's own project computes, reproduced on this run: for a context-load answer
 * (seed 000's system: cortex-coach) on a query set with include/exclude rules, the cortex Phase 2
 * harness's median nDCG@5 (src/metrics/peer/cortex-phase2.ts) beside trec_eval's ndcg_cut.5.
 * None for anything else (the builtin engine included: it is rgate's, not a peer's).
 */
export function peerFigures(
  system: Report['system'],
  queries: readonly QueryRecord[],
  corpus: readonly { id: string; text: string }[],
  observations: readonly Observation[],
  metrics: readonly MetricEntry[],
): PeerFigure[] | undefined {
  if (system.contract !== 'context-load-v0' || system.kind === 'builtin') return undefined;
  // the harness's fixture gives every query its rules; a set with none has nothing to reproduce
  const ruled = queries.some(
    (q) => (q.must_include_signals_any?.length ?? 0) + (q.must_include_tags_any?.length ?? 0) > 0,
  );
  if (!ruled) return undefined;
  const text = new Map(corpus.map((r) => [r.id, r.text]));
  const first = new Map<string, Observation>();
  for (const o of observations) {
    const seen = first.get(o.query_id);
    if (!seen || o.replay < seen.replay) first.set(o.query_id, o);
  }
  const f = cortexPhase2Figures(queries, text, (id) => first.get(id));
  const ndcg = metrics.find((m) => m.id === 'ndcg_cut.5')?.value;
  return [
    {
      id: 'cortex_phase2.median_ndcg_5',
      source: `cortex Phase 2 harness (phase2_retrieval_eval_harness_v0): median over ${queries.length} rule-judged queries of nDCG@5, gain 2^g-1, replay 1`,
      value: f.median_ndcg_5,
      per_query: f.queries.map((q) => ({ query_id: q.query_id, value: q.ndcg_5 })),
      beside: { metric: 'ndcg_cut.5', value: ndcg?.kind === 'mean' ? ndcg.mean : null },
      why: CORTEX_WHY,
    },
  ];
}
