import type { MetricEntry, Observation, PeerFigure, QueryRecord, Report } from '../src/documents/index.js';
import { cortexPhase2Figures } from '../src/metrics/peer/cortex-phase2.js';
import {
  CLI_SEMANTIC_MODES,
  cliExpectedId,
  memoryCliEvaluate,
  type Rate,
} from '../src/metrics/peer/memory-cli-evaluate.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { CONTRACT_DEFAULTS } from '../src/core/defaults.js';

/** The CLI's four rates in its order; why each differs where the reason is the same in every run (top-1's is not: topOneWhy). */
const MEMORY_CLI_WHY: Record<string, string | undefined> = {
  top1_useful_rate: undefined,
  selection_mode_reporting: 'The CLI asks each query once; rgate counts every request of every replay.',
  source_trace_completeness: 'The CLI asks each query once; rgate counts every request of every replay.',
  fallback_determinism:
    'The CLI compares five asks of each query that fell back; rgate compares every replay of those queries.',
};

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Why the CLI's top-1 rate differs from rgate's on this run: only the causes present in it, each
 * with its count (a cause that did not occur is not offered as the explanation).
 */
function topOneWhy(
  queries: readonly QueryRecord[],
  first: (id: string) => Observation | undefined,
  ours: MetricEntry['value'] | undefined,
  semanticWinModes: readonly string[],
): string {
  const why: string[] = [];
  const d = ours?.kind === 'rate' ? ours.denominator : 0;
  if (d !== queries.length)
    why.push(
      `The CLI divides by all ${queries.length} queries; rgate by the ${count(d, 'benchmark query', 'benchmark queries')} with a judgment (probes and unjudged queries are not counted).`,
    );
  const judged = (q: QueryRecord) =>
    Object.keys(q.qrels ?? {}).length > 0 ||
    (q.useful_ids?.length ?? 0) > 0 ||
    (q.useful_paths?.length ?? 0) > 0 ||
    (q.must_include_signals_any?.length ?? 0) + (q.must_include_tags_any?.length ?? 0) > 0;
  const noSingle = queries.filter((q) => judged(q) && cliExpectedId(q) === undefined).length;
  if (noSingle)
    why.push(
      `${count(noSingle, 'judged query names', 'judged queries name')} no single expected id (several relevant documents, or judged by paths or include rules); the CLI's query file holds one expected_id per query, so it never counts ${noSingle === 1 ? 'it' : 'them'} useful.`,
    );
  const modes = new Map<string, number>();
  for (const q of queries) {
    const m = first(q.query_id)?.selection_mode;
    if (m && CLI_SEMANTIC_MODES.includes(m) !== semanticWinModes.includes(m))
      modes.set(m, (modes.get(m) ?? 0) + 1);
  }
  if (modes.size)
    why.push(
      `rgate counts a top-1 selected in ${semanticWinModes.join(', ')} (the system's semantic_win_modes), the CLI in ${CLI_SEMANTIC_MODES.join(', ')}: ` +
        [...modes]
          .sort(([a], [b]) => compareCodeUnits(a, b))
          .map(([m, n]) => `${count(n, 'query', 'queries')} answered ${m}`)
          .join(', ') +
        '.',
    );
  const failed = queries.filter((q) => first(q.query_id)?.ok === false).length;
  if (failed)
    why.push(
      `${count(failed, 'query', 'queries')} failed on replay 1: the CLI's evaluate stops at a failed request, so it would print no figure; here the failure counts as an empty answer.`,
    );
  if (why.length === 0)
    why.push(
      "rgate judges a top-1 by the query's judgments (qrels grades at the suite's relevance level, useful_ids, useful_paths, include rules); the CLI by its one expected id.",
    );
  return why.join(' ');
}

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
  system: Report['system'],
  queries: readonly QueryRecord[],
  observations: readonly Observation[],
  metrics: readonly MetricEntry[],
): PeerFigure[] {
  const byQuery = new Map<string, Observation[]>();
  for (const o of observations) byQuery.set(o.query_id, [...(byQuery.get(o.query_id) ?? []), o]);
  const first = (id: string) => [...(byQuery.get(id) ?? [])].sort((a, b) => a.replay - b.replay)[0];
  const r = memoryCliEvaluate(
    queries.map((q) => ({
      query_id: q.query_id,
      // the expected_id the CLI's own query file would hold (cliExpectedId says how it is read)
      ...(cliExpectedId(q) !== undefined ? { expected_id: cliExpectedId(q)! } : {}),
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
      why: peer.by_default
        ? byDefaultWhy(ours)
        : (MEMORY_CLI_WHY[id] ??
          topOneWhy(queries, first, ours, system.semantic_win_modes ?? CONTRACT_DEFAULTS.semantic_win_modes)),
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
    const m = memoryCliFigures(system, queries, observations, metrics);
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
