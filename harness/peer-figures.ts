import type { MetricEntry, Observation, PeerFigure, QueryRecord, Report } from '../src/documents/index.js';
import { cortexPhase2Figures } from '../src/metrics/peer/cortex-phase2.js';
import { memoryCliEvaluate, type Rate } from '../src/metrics/peer/memory-cli-evaluate.js';

const MEMORY_CLI_WHY: Record<string, string> = {
  top1_useful_rate:
    'The CLI asks each query once and divides by every query, those with no expected id included; rgate counts the judged queries, by its judgments, as its help says.',
  selection_mode_reporting: 'The CLI asks each query once; rgate counts every request of every replay.',
  source_trace_completeness: 'The CLI asks each query once; rgate counts every request of every replay.',
  fallback_determinism:
    'The CLI compares five asks of each query that fell back; rgate compares every replay of those queries.',
};
/**
 * Why the CLI's 1/1 by default differs from rgate's figure: what is true depends on rgate's own value.
 * rgate also counts a query with a failed request (the CLI stops its whole evaluation there), so it can
 * measure queries where the CLI saw no fallback.
 */
function byDefaultWhy(ours: MetricEntry['value'] | undefined): string {
  const cli = "Nothing fell back in the CLI's one ask of each query, and it then reports 1/1 by default";
  if (ours?.kind !== 'rate' || ours.denominator === 0)
    return `${cli}; rgate reports 0/0, insufficient evidence, because nothing was measured.`;
  const d = ours.denominator;
  const queries = d === 1 ? '1 query' : `${d} queries`;
  return (
    `${cli}; rgate's ${ours.numerator}/${d} counts the ${queries} that took a fallback or had a failed ` +
    `request in some replay (a failed request stops the CLI's evaluation; rgate counts it as not ` +
    `deterministic), ${ours.numerator} of them with the same outcome in every replay.`
  );
}

/** memory-cli evaluate's four rates where they differ from rgate's, each with why. */
function memoryCliFigures(
  queries: readonly QueryRecord[],
  observations: readonly Observation[],
  metrics: readonly MetricEntry[],
): PeerFigure[] {
  const byQuery = new Map<string, Observation[]>();
  for (const o of observations) byQuery.set(o.query_id, [...(byQuery.get(o.query_id) ?? []), o]);
  const r = memoryCliEvaluate(
    queries.map((q) => ({
      query_id: q.query_id,
      // the CLI's expected_id: a query naming exactly one useful id
      ...(q.useful_ids?.length === 1 ? { expected_id: q.useful_ids[0]! } : {}),
    })),
    (id) => byQuery.get(id) ?? [],
  );
  const out: PeerFigure[] = [];
  for (const id of Object.keys(MEMORY_CLI_WHY)) {
    const peer = r[id as keyof typeof r] as Rate & { by_default?: boolean };
    const ours = metrics.find((m) => m.id === id)?.value;
    // the same rate (6/8 beside 3/4 is the same finding) is not shown: only a difference needs a reason
    const same =
      ours?.kind === 'rate' &&
      ours.denominator > 0 &&
      ours.numerator * peer.denominator === peer.numerator * ours.denominator;
    if (same) continue;
    out.push({
      id: `memory_cli_evaluate.${id}`,
      source: `memory-cli evaluate (internal/retrieval/eval.go): ${peer.numerator}/${peer.denominator}${peer.by_default ? ' by default' : ''}`,
      peer: 'memory-cli evaluate',
      value: peer.numerator / peer.denominator,
      numerator: peer.numerator,
      denominator: peer.denominator,
      per_query: [],
      beside: { metric: id, value: ours?.kind === 'rate' ? ours.rate : null },
      why: peer.by_default ? byDefaultWhy(ours) : MEMORY_CLI_WHY[id]!,
    });
  }
  return out;
}

const CORTEX_WHY =
  'The harness judges each returned entry by rule on the answer text (signals, tags, query overlap) ' +
  'and takes its ideal from the returned list itself, so a list of uniformly poor entries can score 1, ' +
  'and it reports the median; ndcg_cut.5 uses the set’s qrels, an ideal from every judged document, ' +
  'trec_eval’s linear gain and ties broken by document id, and reports the mean.';

/**
 * Figures the system's own project computes, reproduced on this run: for a context-load answer
 * (seed 000's system: cortex-coach) on a query set with include/exclude rules, the cortex Phase 2
 * harness's median nDCG@5 (src/metrics/peer/cortex-phase2.ts) beside trec_eval's ndcg_cut.5; for a
 * memory-cli answer, `memory-cli evaluate`'s four rates where they differ from rgate's. None for
 * anything else (the builtin engine included: it is rgate's, not a peer's).
 */
export function peerFigures(
  system: Report['system'],
  queries: readonly QueryRecord[],
  corpus: readonly { id: string; text: string }[],
  observations: readonly Observation[],
  metrics: readonly MetricEntry[],
): PeerFigure[] | undefined {
  if (system.kind === 'builtin') return undefined;
  if (system.contract === 'memory-cli-v1') {
    const m = memoryCliFigures(queries, observations, metrics);
    return m.length ? m : undefined;
  }
  if (system.contract !== 'context-load-v0') return undefined;
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
      peer: 'cortex Phase 2 harness',
      value: f.median_ndcg_5,
      per_query: f.queries.map((q) => ({ query_id: q.query_id, value: q.ndcg_5 })),
      beside: { metric: 'ndcg_cut.5', value: ndcg?.kind === 'mean' ? ndcg.mean : null },
      why: CORTEX_WHY,
    },
  ];
}
