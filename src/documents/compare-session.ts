/**
 * `rgate compare`: every variant of a suite's config run on the same pinned snapshot and seed, and
 * each per-query metric compared pairwise. The run store keeps the session, so `rgate compare
 * --list` / `--show` find it again.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { BetterSchema } from './better.js';
import { VerdictSchema } from './gate-result.js';
import { Closed, Const, OrNull, StringEnum, StringMap } from './keywords.js';
import { MeasureKindSchema } from './measure-value.js';
import { MetricWinnerSchema, PairedSettingsSchema, PairedTestSchema } from './paired-test.js';
import { Top1JudgmentSchema } from './query-outcome.js';
import { SelectionModeSchema } from './selection-mode.js';
import { PartialConfigSchema, WeightingSchema } from './retrieval-config.js';
import { JudgmentHolesSchema } from './label.js';

export const COMPARE_SCHEMA_VERSION = 'rgate-compare/1';

const count = Type.Integer({ minimum: 0 });

/** A sweep's grid: one config key and the values it takes. */
export const SweepSpecSchema = Closed({ key: Type.String(), values: Type.Array(Type.Number()) });
export type SweepSpec = Static<typeof SweepSpecSchema>;

/** metric id -> query id -> per-query value */
export const PerQueryValuesSchema = StringMap(StringMap(Type.Number()));
export type PerQueryValues = Static<typeof PerQueryValuesSchema>;

export const CompareAggregateSchema = Closed({
  metric: Type.String(),
  kind: MeasureKindSchema,
  value: OrNull(Type.Number()),
  numerator: Type.Optional(count),
  denominator: Type.Optional(count),
});
export type CompareAggregate = Static<typeof CompareAggregateSchema>;

/** A kept ranking: doc ids in trec_eval's order and their scores, index for index. */
export const KeptRankingSchema = Closed({
  ids: Type.Array(Type.String()),
  scores: Type.Array(Type.Number()),
});
export type KeptRanking = Static<typeof KeptRankingSchema>;
/** query id -> replay 1's ranking as trec_eval scores it */
export type KeptRankings = Record<string, KeptRanking>;

/**
 * A query's replay-1 top-1 as its run judged it: the answer facts a top-1 rate reads besides grades,
 * so that the rate counts again under other grades (history/compare-top1.ts).
 */
export const KeptTop1Schema = Closed({
  /** selected_id, else the first ranked id */
  id: Type.String(),
  /** the answer's selection mode; absent: it named none */
  mode: Type.Optional(SelectionModeSchema),
  /** the top-1 carries a tag the query excludes: never useful, whatever its grade */
  leak: Type.Optional(Const(true)),
});
export type KeptTop1 = Static<typeof KeptTop1Schema>;

export const CompareVariantSchema = Closed({
  /** v1, v2, ... in the order given; v1 is the reference */
  id: Type.String(),
  label: Type.String(),
  overrides: PartialConfigSchema,
  /** the grid value of a sweep point */
  sweep_value: Type.Optional(Type.Number()),
  run_id: Type.String(),
  config_id: Type.String(),
  config_sha256: Type.String(),
  /**
   * the variant's weighting mode and the weights it resolves to, as its run report states them
   * (`system.weighting`). Absent where the system does not read weighting_mode and in sessions
   * written before it was shown.
   */
  weighting: Type.Optional(WeightingSchema),
  verdict: VerdictSchema,
  /**
   * why the verdict is not PASS, as its run's gate says it: the first reason at the verdict's level
   * (a FAIL's first failing rule or checklist item; what overruled the run, when the run did).
   * Absent for PASS and in sessions written before it.
   */
  verdict_reason: Type.Optional(Type.String()),
  /** every measure of the variant's report (headline value) */
  aggregates: Type.Array(CompareAggregateSchema),
  per_query: PerQueryValuesSchema,
  /** query id -> replay 1's top ids (at most 10), what `rgate label queue` pools */
  top_ids: Type.Optional(StringMap(Type.Array(Type.String()))),
  /**
   * query id -> replay 1's top-1 of every query answered with one (an error or an empty answer has
   * none). Absent in sessions written before it was kept.
   */
  top1: Type.Optional(StringMap(KeptTop1Schema)),
  /**
   * the selection modes the variant's run counted as semantic wins (`top1_useful_rate`); written
   * with `top1`
   */
  semantic_win_modes: Type.Optional(Type.Array(Type.String())),
  /**
   * replay 1's scored ranking of every query the variant asked (ids and their scores, index for
   * index) in trec_eval's order
   * (score descending, docno bytes descending), cut to the deepest depth any compared ranking measure
   * reads (its largest cutoff; the whole answer for map, ndcg, recip_rank ...): what scores those
   * measures again, exactly, under other grades. Absent in sessions written before it was kept.
   */
  rankings: Type.Optional(
    Closed({
      relevance_level: Type.Number(),
      /** null: the whole answer was kept */
      depth: OrNull(count),
      queries: StringMap(KeptRankingSchema),
    }),
  ),
  /** unjudged documents in the top k, one entry per k (5, 10) */
  judgment_holes: Type.Optional(Type.Array(JudgmentHolesSchema)),
  /**
   * benchmark queries by replay 1's selection mode ("none (ranking only)": an answer that names no
   * mode; "error": no answer), so a tuning session sees a label shift beside a metric move. Absent in
   * sessions written before it existed.
   */
  selection_modes: Type.Optional(StringMap(count)),
});
export type CompareVariant = Static<typeof CompareVariantSchema>;

const FlipSideSchema = Closed({ selected: OrNull(Type.String()), top1: Top1JudgmentSchema });

/** A query whose top-1 record differs between two variants. */
export const TopFlipSchema = Closed({
  query_id: Type.String(),
  text: Type.String(),
  a: FlipSideSchema,
  b: FlipSideSchema,
  /** useful -> not: 'worse'; not -> useful: 'better'; otherwise 'changed' */
  direction: StringEnum(['better', 'worse', 'changed']),
});
export type TopFlip = Static<typeof TopFlipSchema>;

export const CompareFlipsSchema = Closed({
  a: Type.String(),
  b: Type.String(),
  queries: Type.Array(TopFlipSchema),
});
export type CompareFlips = Static<typeof CompareFlipsSchema>;

/**
 * A gate metric that moved between two variants while their rankings did not: no top-1 flip and
 * every other measure tied on every query. The move comes from how answers are labelled (a selection
 * mode such as hybrid_rrf counted as a semantic win), not from what was retrieved.
 */
export const LabelEffectSchema = Closed({
  metric: Type.String(),
  /** the pair, as in `tests[]` (a is the reference) */
  a: Type.String(),
  b: Type.String(),
  /** the gate metric's mean per-query delta b - a */
  mean_delta: Type.Number(),
  /** the measures compared for the pair that tied on every query (the ranking did not change) */
  tied_measures: Type.Array(Type.String()),
});
export type LabelEffect = Static<typeof LabelEffectSchema>;

/**
 * A ranking measure's judgment holes in a comparison: the unjudged documents within its depth in
 * any variant's kept ranking, and the winner with all of them graded 0 and graded the set's top grade.
 * A top-1 rate's (depth 1): the unjudged top-1s of the queries with qrels, in any variant.
 */
export const WinnerHolesSchema = Closed({
  metric: Type.String(),
  /** the rank cutoff the holes were looked for within; null: the whole ranking */
  depth: OrNull(count),
  top_grade: Type.Number(),
  /** the session's winner (null: none) */
  winner: OrNull(Type.String()),
  with_zero: OrNull(Type.String()),
  with_top: OrNull(Type.String()),
  /** with_zero or with_top differs from winner */
  can_flip: Type.Boolean(),
  /** the unjudged (query, doc) pairs within the depth, in query then doc id order */
  pairs: Type.Array(Closed({ query_id: Type.String(), doc_id: Type.String() })),
});
export type WinnerHoles = Static<typeof WinnerHolesSchema>;

/** A measure a comparison does not score again under other grades, and the answer data it needs. */
export const NotRescoredSchema = Closed({ metric: Type.String(), needs: Type.String() });

export const CompareSessionSchema = Closed({
  schema: Const(COMPARE_SCHEMA_VERSION),
  suite: Type.String(),
  kind: StringEnum(['variants', 'sweep']),
  sweep: Type.Optional(SweepSpecSchema),
  /** the pinned snapshot every variant ran on (config as frozen, before overrides) */
  artifacts: ArtifactRefsSchema,
  settings: Closed({ ...PairedSettingsSchema.properties, replays: count, pairs: Const('all') }),
  reference: Type.String(),
  /** metrics named by the suite's gate rules (what the sweep chart plots) */
  gate_metrics: Type.Array(Type.String()),
  /** metrics compared per query, with the direction that counts as better */
  metrics: Type.Array(Closed({ id: Type.String(), better: BetterSchema })),
  /**
   * measures left out of the paired tests (and of Holm's family) because the run report calls them
   * not applicable (gates/metric-applies.ts), each with why. Absent in sessions written before they
   * were left out, which tested every per-query measure.
   */
  not_applicable: Type.Optional(Type.Array(Closed({ id: Type.String(), why: Type.String() }))),
  variants: Type.Array(CompareVariantSchema),
  /** every pair of variants x every metric, Holm-corrected together */
  tests: Type.Array(PairedTestSchema),
  /**
   * how many tests Holm's family counted: those whose pairs do not tie on every query. Absent in
   * sessions written before the ties were left out, whose family was every test with a p-value.
   */
  holm_tests: Type.Optional(count),
  winners: Type.Array(MetricWinnerSchema),
  /** top-1 flips of every variant against the reference */
  flips: Type.Array(CompareFlipsSchema),
  /**
   * gate metrics that moved with no ranking change (label effects). Sessions written before it
   * existed lack it; reading one back (checkSession) computes it.
   */
  label_effects: Type.Optional(Type.Array(LabelEffectSchema)),
  /**
   * per ranking measure compared, the pairs whose grade could flip its winner (see WinnerHoles).
   * Absent in sessions written before it, and when the comparison had no query set at hand.
   */
  winner_holes: Type.Optional(Type.Array(WinnerHolesSchema)),
  /**
   * the top-1 rates compared whose values the session cannot count again under other grades, each
   * with the answer data it needs (their winners keep the session's values). Absent when none.
   */
  winner_holes_not_rescored: Type.Optional(Type.Array(NotRescoredSchema)),
  /** the only fields that differ between two sessions of the same inputs */
  environment: Closed({ session_id: Type.String(), created_at: Type.String() }),
});
export type CompareSession = Static<typeof CompareSessionSchema>;
