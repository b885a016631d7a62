/**
 * The run report: what the harness produces, the gate evaluator reads and every renderer draws.
 * Deterministic sections first; `environment` and `timing` hold everything that may differ between
 * two runs of the same inputs (ids, clocks, latencies), so the rest is byte-identical.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { ErrorSummarySchema, WarningSummarySchema } from './error-summary.js';
import { FallbackReasonSummarySchema } from './fallback-reasons.js';
import { ContractViolationsSchema } from './contract-violations.js';
import { PeerFigureSchema } from './peer-figures.js';
import { GateResultSchema, RuleResultSchema } from './gate-result.js';
import { Closed, Const, StringMap, WithDefs } from './keywords.js';
import { MeasureValueSchema } from './measure-value.js';
import { BreakdownSchema, MetricEntrySchema } from './metric-entry.js';
import { QueryOutcomeSchema } from './query-outcome.js';
import { ReplayProofSchema } from './replay-proof.js';
import { RunEvidenceSchema } from './run-evidence.js';
import { SelectionModeSchema } from './selection-mode.js';
import { WeightingSchema } from './retrieval-config.js';

export const REPORT_SCHEMA_VERSION = 'rgate-report/1';

const count = Type.Integer({ minimum: 0 });

/** The system under test, as the report names it. */
export const ReportSystemSchema = Closed({
  name: Type.String(),
  kind: Type.String(),
  contract: Type.String(),
  /**
   * selection modes the gate counted as a semantic win (the contract's setting). Absent in reports
   * written before the setting existed, which counted `semantic` only.
   */
  semantic_win_modes: Type.Optional(Type.Array(SelectionModeSchema)),
  /**
   * context-load-v0 answers: which entries were ranked (the suite's `ranked_entries`, `auto` when it
   * sets none). Absent for other contracts and in reports written before the setting was shown.
   */
  ranked_entries: Type.Optional(Type.String()),
  /**
   * the builtin context-load engine: the run's weighting_mode and the weights the engine's preset
   * table gives it. Absent for systems that do not read weighting_mode (rgate cannot know what an
   * external system does with it) and in reports written before it was shown.
   */
  weighting: Type.Optional(WeightingSchema),
});

/** How the run was made: replays, concurrency, seed, relevance level. */
export const RunSettingsSchema = Closed({
  replays: count,
  concurrency: count,
  seed: Type.Integer(),
  relevance_level: Type.Integer(),
  restart_between_replays: Type.Boolean(),
});
export type RunSettings = Static<typeof RunSettingsSchema>;

/**
 * The top-1 measure's denominator by outcome: the benchmark queries with a judgment, each in exactly
 * one bucket (the buckets sum to `counted`). `useful` is top1_useful_rate's numerator; with
 * `useful_by_fallback` and `useful_without_mode` it is top1_useful_any_mode's. `unjudged` top-1s count as not useful.
 */
export const Top1SplitSchema = Closed({
  counted: Type.Integer({ minimum: 0 }),
  /** judged useful and a semantic win (where there is no selection step: judged useful) */
  useful: Type.Integer({ minimum: 0 }),
  /** judged useful but selected by a fallback (or another non-semantic mode) */
  useful_by_fallback: Type.Integer({ minimum: 0 }),
  /**
   * judged useful, from an answer that names no selection mode (a plain ranking) where the run has a
   * selection step: not a semantic win, and no fallback chose it. Absent when 0.
   */
  useful_without_mode: Type.Optional(Type.Integer({ minimum: 1 })),
  /** a judgment covers the top-1 and says not useful (a grade below the relevance level, an unmet rule, an excluded tag) */
  judged_not_useful: Type.Integer({ minimum: 0 }),
  /** no judgment covers the top-1: the fixture's hole, counted as not useful */
  unjudged: Type.Integer({ minimum: 0 }),
  /** no top-1: no answer, or the request failed */
  no_answer: Type.Integer({ minimum: 0 }),
});
export type Top1Split = Static<typeof Top1SplitSchema>;

/**
 * The report's fields: the report itself, and the packed report file of a large run
 * (packed-report.ts), which holds the same fields with the query lists stored as columns.
 */
export const REPORT_PROPERTIES = {
  schema_version: Const(REPORT_SCHEMA_VERSION),
  suite: Type.String(),
  system: ReportSystemSchema,
  artifacts: ArtifactRefsSchema,
  settings: RunSettingsSchema,
  /** how the run's answers were judged: the top-1 usefulness rule, and whether selection data applies */
  judging: Type.Optional(
    Closed({
      top1_useful_rule: Type.String(),
      /** some answer reported a selection mode other than no_match (semantic / fallback), or the gate reads a selection measure */
      selection_step: Type.Boolean(),
      /** the queries the top-1 rates count, split by what their replay-1 top-1 was (absent in older reports) */
      top1_split: Type.Optional(Top1SplitSchema),
    }),
  ),
  gate: GateResultSchema,
  metrics: Type.Array(MetricEntrySchema),
  breakdowns: Type.Array(BreakdownSchema),
  failing_queries: Type.Array(QueryOutcomeSchema),
  queries: Type.Array(QueryOutcomeSchema),
  replay_proof: ReplayProofSchema,
  /** what ran: the run's state and its requests and replays attempted (absent in older reports) */
  evidence: Type.Optional(RunEvidenceSchema),
  /** failed requests by error class (absent in reports written before it existed) */
  errors: Type.Optional(ErrorSummarySchema),
  /** measured answers that break the letter of their contract, by rule (absent when none does) */
  contract_violations: Type.Optional(ContractViolationsSchema),
  /** the system's own project's figures, reproduced, beside rgate's (informational, never gated) */
  peer_figures: Type.Optional(Type.Array(PeerFigureSchema)),
  /**
   * probes the system cannot take, by input: the system has no way to receive it (an exact-key probe
   * without `{exact_key}` in its request), so their expectations are not measured. Absent when none.
   */
  not_applicable: Type.Optional(
    Type.Array(
      Closed({
        /** the probe input the system cannot receive, e.g. exact_key */
        input: Type.String(),
        query_ids: Type.Array(Type.String()),
        reason: Type.String(),
        fix: Type.String(),
      }),
    ),
  ),
  /** what answered requests wrote on stderr, deduplicated (absent in reports written before it existed) */
  warnings: Type.Optional(WarningSummarySchema),
  /** why the system says it fell back, each distinct stated reason counted (absent in reports written before it existed) */
  fallback_reasons: Type.Optional(FallbackReasonSummarySchema),
  /** baseline comparisons and reset notes, when the gate used a baseline */
  baseline: Type.Optional(
    Closed({
      run_id: Type.Optional(Type.String()),
      source: Type.String(),
      artifacts: Type.Optional(ArtifactRefsSchema),
      reset_note: Type.Optional(Type.String()),
    }),
  ),
  environment: Closed({
    run_id: Type.String(),
    started_at: Type.String(),
    rgate_version: Type.String(),
    node: Type.String(),
    platform: Type.String(),
  }),
  timing: Closed({
    wall_ms: Type.Number({ minimum: 0 }),
    latency_ms: StringMap(MeasureValueSchema),
    /** gate rules that read timing-dependent metrics (latency) are re-stated here */
    timing_rules: Type.Optional(Type.Array(RuleResultSchema)),
  }),
};

const report = Closed(REPORT_PROPERTIES, {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/report.json',
  title: 'rgate run report',
});

export const ReportSchema = WithDefs(report, {
  measureValue: MeasureValueSchema,
  artifacts: ArtifactRefsSchema,
  rule: RuleResultSchema,
  query: QueryOutcomeSchema,
});
export type Report = Static<typeof ReportSchema>;
