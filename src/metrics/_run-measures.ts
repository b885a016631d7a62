/**
 * The one entry point the harness calls: every gate measure, the requested ranking measures, the
 * per-query outcomes, the breakdowns, and latency — all from the observations of a run.
 */
import { scoredRanking } from './_ranking-scores.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import { deriveSeed } from '../core/prng.js';
import type { Breakdown, MeasureValue, MetricEntry, QueryOutcome, QueryRecord } from '../documents/index.js';
import { DocTable, qrelsFromEntries, runFromRows } from '../trec/index.js';
import { RgateError } from '../core/errors.js';
import { evaluateTrec } from './_evaluate.js';
import { parseRankingMetricId } from './_spec.js';
import type { MeasureSpec, NumericSpec } from './_types.js';
import { GateContext, type MeasureInput } from './gate/_context.js';
import { latencyQuantiles } from './gate/latency.js';
import { GATE_MEASURES } from './gate/registry.js';
import { leakedTagsOf } from './gate/sensitive-leak-rate.js';
import type { GateValues } from './gate/_types.js';
import { aggregate, mean, rate } from './gate/_values.js';

export interface RunMeasuresInput extends MeasureInput {
  /** ranking metric ids, e.g. ['map', 'ndcg_cut.5', 'recall.10', 'P.30'] */
  rankingMeasures: string[];
}

export interface RunMeasures {
  metrics: MetricEntry[];
  /**
   * Every gate metric's per-query values (query-set order), from which its entry in `metrics` was
   * aggregated. Not part of the report: the QueryOutcomes carry what report readers need.
   */
  gate: GateValues[];
  queries: QueryOutcome[];
  breakdowns: Breakdown[];
  /** keys 'all', 'profile:small', ... (timing-dependent, so reported apart) */
  latency: Record<string, MeasureValue>;
}

/** The report's id for one printed trec name: P_10 -> P.10, ndcg_cut_5 -> ndcg_cut.5, map -> map. */
function metricIdOf(spec: MeasureSpec, name: string): string {
  const prefix = `${spec.measure.id}_`;
  return name.startsWith(prefix) ? `${spec.measure.id}.${name.slice(prefix.length)}` : name;
}

interface RankingResult {
  /** metric id -> per-query values (queries with qrels, query-set order) */
  perQuery: Map<string, Map<string, number>>;
  /** metric id -> trec_eval -c summary */
  summary: Map<string, number>;
  ids: string[];
  help: Map<string, string>;
}

/**
 * The measures a suite's `ranking_measures` names, once each; a name trec_eval does not know is the
 * user's mistake (exit 2). A run plan checks them before the first request (harness/run-plan.ts).
 */
export function rankingSpecsOf(ids: readonly string[]): NumericSpec[] {
  return [...new Set(ids)].map((id) => {
    const spec = parseRankingMetricId(id);
    if (!spec) {
      throw new RgateError(
        'config_invalid',
        `unknown ranking measure "${id}"`,
        'e.g. map, ndcg_cut.10, P.10, recall.100 (trec_eval names: see rgate score --help)',
      );
    }
    return spec;
  });
}

/**
 * Ranking measures over replay 1's ranked lists, exactly as trec_eval -c would score a TREC run
 * written from them: results ordered by score desc, ties by id desc (bytes) — not by the system's
 * own order, unless its contract makes order the rank (scoredRanking; a repeated id at its first position only) — and every query with qrels averaged (an errored or empty answer scores 0).
 */
function rankingMeasures(
  ctx: GateContext,
  input: RunMeasuresInput,
  qrelsOf: QrelsOf = (q) => q.qrels,
): RankingResult {
  const specs = rankingSpecsOf(input.rankingMeasures);
  const result: RankingResult = { perQuery: new Map(), summary: new Map(), ids: [], help: new Map() };
  // a query a run that stopped early never asked is not scored (it would score 0 for want of a request)
  const judgedQueries = ctx.queries
    .filter((q) => Object.keys(qrelsOf(q) ?? {}).length > 0 && ctx.attempted(q))
    .map((q) => ({ ...q, qrels: qrelsOf(q)! }));
  if (specs.length === 0 || judgedQueries.length === 0) {
    for (const s of specs) for (const n of s.names) result.ids.push(metricIdOf(s, n));
    return result;
  }
  const rows: { qid: string; docno: string; score: number }[] = [];
  for (const q of judgedQueries) {
    const o = ctx.first(q);
    if (!o?.ok) continue;
    for (const r of scoredRanking(o)) rows.push({ qid: q.query_id, docno: r.id, score: r.score });
  }
  return scoreRows(judgedQueries, rows, specs, input.relevanceLevel, result);
}

/** trec_eval -c over `rows` (a TREC run) of the queries with qrels: what every ranking figure comes from. */
function scoreRows(
  judgedQueries: readonly (QueryRecord & { qrels: Readonly<Record<string, number>> })[],
  rows: readonly { qid: string; docno: string; score: number }[],
  specs: readonly NumericSpec[],
  relevanceLevel: number,
  result: RankingResult,
): RankingResult {
  const docs = new DocTable();
  const qrels = qrelsFromEntries(
    judgedQueries.flatMap((q) =>
      Object.keys(q.qrels!)
        .sort(compareCodeUnits)
        .map((docno) => ({ qid: q.query_id, docno, rel: q.qrels![docno]! })),
    ),
    docs,
  );
  const run = runFromRows(rows, 'replay1');
  const r = evaluateTrec(qrels, run, specs, {
    relevanceLevel: relevanceLevel,
    averageComplete: true,
  });
  const byteQid = new Map(
    judgedQueries.map((q) => [Buffer.from(q.query_id, 'utf8').toString('latin1'), q.query_id]),
  );
  r.specs.forEach((s, si) =>
    s.names.forEach((name, ni) => {
      const id = metricIdOf(s, name);
      result.ids.push(id);
      result.summary.set(id, r.summary[si]![ni]!);
      result.help.set(
        id,
        `mean over the ${r.numQueries} queries with qrels of per-query ${name} (trec_eval -c conventions, ` +
          `relevance level ${relevanceLevel}) on replay 1's ranking; n = queries with qrels; ` +
          'an errored or empty answer scores 0; seeded bootstrap 95% interval over queries (a breakdown ' +
          'with a single row gives that row no interval of its own: this overall interval applies).',
      );
      const m = new Map<string, number>();
      for (const qv of r.queries) m.set(byteQid.get(qv.qid) ?? qv.qid, qv.values[si]![ni]!);
      result.perQuery.set(id, m);
    }),
  );
  return result;
}

/** A query's qrels as a rescoring reads them (doc id -> grade); undefined: none. */
export type QrelsOf = (q: QueryRecord) => Readonly<Record<string, number>> | undefined;

/**
 * The ranking measures of `input.rankingMeasures` scored again with other qrels (holes filled, or
 * another grader's grades), by the code the run's own figures come from: metric id -> the mean
 * (trec_eval -c) and the per-query values.
 */
export function rescoreRankingMeasures(
  input: RunMeasuresInput,
  qrelsOf: QrelsOf,
): Map<string, { mean: number | undefined; perQuery: ReadonlyMap<string, number> }> {
  const r = rankingMeasures(new GateContext(input), input, qrelsOf);
  return new Map(
    r.ids.map((id) => [id, { mean: r.summary.get(id), perQuery: r.perQuery.get(id) ?? new Map() }]),
  );
}

/**
 * Ranking measures scored on kept rankings (query id -> ids and scores, see keptRankings) with
 * `qrelsOf`'s grades, by the same trec_eval call as a run's figures: metric id -> query id -> value,
 * over the queries with grades that the rankings say were asked (an empty ranking scores 0).
 */
export function scoreKeptRankings(
  rankings: Readonly<Record<string, { readonly ids: readonly string[]; readonly scores: readonly number[] }>>,
  queries: readonly QueryRecord[],
  qrelsOf: QrelsOf,
  measures: readonly string[],
  relevanceLevel: number,
): Map<string, Map<string, number>> {
  const specs = rankingSpecsOf(measures);
  const result: RankingResult = { perQuery: new Map(), summary: new Map(), ids: [], help: new Map() };
  const judged = queries
    .filter((q) => Object.hasOwn(rankings, q.query_id) && Object.keys(qrelsOf(q) ?? {}).length > 0)
    .map((q) => ({ ...q, qrels: qrelsOf(q)! }));
  if (specs.length === 0 || judged.length === 0) return new Map(measures.map((m) => [m, new Map()]));
  const rows = judged.flatMap((q) =>
    rankings[q.query_id]!.ids.map((docno, i) => ({
      qid: q.query_id,
      docno,
      score: rankings[q.query_id]!.scores[i]!,
    })),
  );
  return scoreRows(judged, rows, specs, relevanceLevel, result).perQuery;
}

export function computeRunMeasures(input: RunMeasuresInput): RunMeasures {
  const ctx = new GateContext(input);
  const metrics: MetricEntry[] = [];
  const gate: GateValues[] = [];
  for (const m of GATE_MEASURES) {
    for (const values of m.perQuery(ctx)) {
      gate.push(values);
      metrics.push({ id: values.id, value: aggregate(values, input.seed), help: m.help });
    }
  }
  const gateById = new Map(gate.map((v) => [v.id, v]));
  const ranking = rankingMeasures(ctx, input);
  for (const id of ranking.ids) {
    const values = [...(ranking.perQuery.get(id)?.values() ?? [])];
    metrics.push({
      id,
      value: mean(values, deriveSeed(input.seed, id), ranking.summary.get(id)),
      help: ranking.help.get(id) ?? `${id}: not measured (no query has qrels); n = queries with qrels`,
    });
  }

  const queries: QueryOutcome[] = ctx.queries.map((q) => queryOutcome(ctx, q, ranking, gateById));
  const breakdowns = buildBreakdowns(ctx, queries, ranking, gateById, input.seed);
  return { metrics, gate, queries, breakdowns, latency: latencyQuantiles(ctx) };
}

/** A query-level gate measure's value for one query (null: not counted). */
function queryValue(gate: ReadonlyMap<string, GateValues>, id: string, q: QueryRecord): 0 | 1 | null {
  const v = gate.get(id);
  if (v?.kind !== 'query_rate') throw new RgateError('internal', `${id} is not a rate over queries`);
  return v.perQuery.get(q.query_id) ?? null;
}

/**
 * One query as the report shows it. expectation_met and deterministic are the gate measures'
 * per-query values, so whoever reads them from a report reads the measure, not a restatement.
 */
function queryOutcome(
  ctx: GateContext,
  q: QueryRecord,
  ranking: RankingResult,
  gate: ReadonlyMap<string, GateValues>,
): QueryOutcome {
  const o = ctx.first(q);
  const verdict = ctx.judgeTop1(q, o);
  const probe = ctx.isProbe(q);
  const met = queryValue(gate, 'fallback_expectation_met', q);
  const leaked = leakedTagsOf(ctx, q);
  const measures: Record<string, number> = {};
  for (const id of ranking.ids) {
    const v = ranking.perQuery.get(id)?.get(q.query_id);
    if (v !== undefined) measures[id] = v;
  }
  const expected: QueryOutcome['expected'] = {};
  if (q.expect?.selection_mode) expected.selection_mode = q.expect.selection_mode;
  if (q.expect?.no_match !== undefined) expected.no_match = q.expect.no_match;
  if (q.useful_ids) expected.useful_ids = q.useful_ids;
  if (q.useful_paths) expected.useful_paths = q.useful_paths;
  const relevant = Object.entries(q.qrels ?? {})
    .filter(([, g]) => g >= ctx.input.relevanceLevel)
    .sort(([a, ga], [b, gb]) => gb - ga || compareCodeUnits(a, b))
    .map(([id]) => id);
  if (relevant.length) expected.relevant_ids = relevant;
  const actual: QueryOutcome['actual'] = {
    ok: o?.ok ?? false,
    top_ids: (o?.ranked ?? []).slice(0, 10).map((r) => r.id),
  };
  if (o?.unranked?.length) actual.unranked_ids = o.unranked.map((u) => u.id);
  if (!o) actual.error = 'not observed';
  else if (!o.ok) actual.error = o.error ? `${o.error.kind}: ${o.error.message}` : 'error';
  if (o?.selection_mode) actual.selection_mode = o.selection_mode;
  if (o?.selected_id) actual.selected_id = o.selected_id;
  if (o?.source_path) actual.source_path = o.source_path;
  if (o?.fallback.stage) actual.fallback_stage = o.fallback.stage;
  if (o?.fallback.reason !== undefined) actual.fallback_reason = o.fallback.reason;
  return {
    query_id: q.query_id,
    text: q.text,
    ...(q.profile ? { profile: q.profile } : {}),
    kind: probe ? 'probe' : 'benchmark',
    ...(q.tags ? { tags: q.tags } : {}),
    expected,
    actual,
    top1: verdict.judgment,
    ...(verdict.by ? { top1_by: verdict.by } : {}),
    judged: ctx.hasJudgment(q),
    ...(met !== null ? { expectation_met: met === 1 } : {}),
    ...(ctx.notApplicable(q) !== undefined ? { not_applicable: ctx.notApplicable(q) } : {}),
    deterministic: queryValue(gate, 'replay_determinism', q) === 1,
    // not every replay of it ran and those that did agree: neither stable nor unstable is shown
    ...(queryValue(gate, 'replay_determinism', q) === null ? { determinism_shown: false } : {}),
    ...(leaked.length ? { leaked_tags: leaked } : {}),
    ...(Object.keys(measures).length ? { measures } : {}),
  };
}

const KU_ROW_METRICS = ['ku_level_appropriateness', 'ku_guidance_retention'] as const;

/**
 * Metrics of one breakdown row: how many queries, top-1 usefulness, errors, ranking means. The gate
 * metrics are their measures' per-query values aggregated over the row's queries.
 */
function rowMetrics(
  ctx: GateContext,
  rows: readonly QueryRecord[],
  outcomes: ReadonlyMap<string, QueryOutcome>,
  ranking: RankingResult,
  gate: ReadonlyMap<string, GateValues>,
  seed: number,
  key: string,
  onlyRow: boolean,
): Record<string, MeasureValue> {
  const ids = new Set(rows.map((q) => q.query_id));
  const over = (id: string): MeasureValue => aggregate(gate.get(id)!, seed, ids);
  // top1_unjudged shares top1_useful_any_mode's denominator: the queries that measure counts
  const counted = rows.filter((q) => queryValue(gate, 'top1_useful_any_mode', q) !== null);
  const m: Record<string, MeasureValue> = {
    queries: rate(rows.length, ctx.queries.length),
    top1_useful_any_mode: over('top1_useful_any_mode'),
    top1_unjudged: rate(
      counted.filter((q) => outcomes.get(q.query_id)?.top1 === 'unjudged').length,
      counted.length,
    ),
    fallback_expectation_met: over('fallback_expectation_met'),
    error_rate: over('error_rate'),
  };
  // KU answers (DS012): their level and guidance measures per row too, only where the run measured them
  for (const id of KU_ROW_METRICS) {
    const all = gate.get(id);
    if (all && all.kind === 'counts' && [...all.perQuery.values()].some((c) => c.denominator > 0))
      m[id] = over(id);
  }
  for (const id of ranking.ids) {
    const per = ranking.perQuery.get(id);
    const values = rows.flatMap((q) => {
      const v = per?.get(q.query_id);
      return v === undefined ? [] : [v];
    });
    // a breakdown's only row holds every query: its interval would restate the overall one
    m[id] = mean(values, deriveSeed(seed, `${key}/${id}`), undefined, !onlyRow);
  }
  return m;
}

/**
 * Breakdowns by replay-1 selection mode (semantic wins and fallback-triggered answers apart, seed
 * 001), by profile, and by tag. Row keys are sorted; "error" and "none" name unanswered and unlabelled.
 */
function buildBreakdowns(
  ctx: GateContext,
  outcomes: readonly QueryOutcome[],
  ranking: RankingResult,
  gate: ReadonlyMap<string, GateValues>,
  seed: number,
): Breakdown[] {
  const byId = new Map(outcomes.map((o) => [o.query_id, o]));
  const group = (keyOf: (q: QueryRecord) => string[]): Map<string, QueryRecord[]> => {
    const g = new Map<string, QueryRecord[]>();
    for (const q of ctx.queries) {
      for (const k of keyOf(q)) {
        const list = g.get(k) ?? [];
        list.push(q);
        g.set(k, list);
      }
    }
    return g;
  };
  const rowsOf = (by: string, g: Map<string, QueryRecord[]>): Breakdown => ({
    by,
    rows: [...g.keys()].sort(compareCodeUnits).map((key) => ({
      key,
      metrics: rowMetrics(ctx, g.get(key)!, byId, ranking, gate, seed, `${by}:${key}`, g.size === 1),
    })),
  });
  const modeKeys = (q: QueryRecord): string[] => {
    const o = ctx.first(q);
    if (!o || !o.ok) return ['error'];
    const keys = [o.selection_mode ?? 'none'];
    // "fallback_triggered" gathers every answer that took a fallback, whatever mode it reported
    if (ctx.tookFallback(o)) keys.push('fallback_triggered');
    return keys;
  };
  return [
    rowsOf('selection_mode', group(modeKeys)),
    rowsOf(
      'profile',
      group((q) => [ctx.first(q)?.profile ?? q.profile ?? 'none']),
    ),
    rowsOf(
      'tag',
      group((q) => (q.tags && q.tags.length ? [...new Set(q.tags)] : ['none'])),
    ),
  ];
}
