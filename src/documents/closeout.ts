/**
 * The Gate C closeout (seed 000 "Fixture Freeze Binding"): one document that binds a run to the
 * frozen fixture, names its baseline (and the reset note when the fixture version moved since),
 * states observed vs target for every rule, the determinism proof, budget compliance, the failing
 * queries, residual risks with owners and due dates, and a sign-off block.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { FreezeHistoryEntrySchema } from './freeze.js';
import { ChecklistItemSchema, RuleResultSchema, VerdictSchema } from './gate-result.js';
import { Closed, Const, OrNull, StringEnum } from './keywords.js';
import { MetricEntrySchema } from './metric-entry.js';
import { QueryOutcomeSchema } from './query-outcome.js';
import { ReplayDivergenceSchema } from './replay-proof.js';
import { ReportSystemSchema, RunSettingsSchema } from './report.js';
import { ResidualRiskSchema } from './residual-risk.js';

export const CLOSEOUT_SCHEMA_VERSION = 'rgate-closeout/1';

const nullableString = OrNull(Type.String());
const count = Type.Integer({ minimum: 0 });

/** One query's value of a ranking measure; against the baseline also its value there and the change. */
export const RankingQuerySchema = Closed({
  query_id: Type.String(),
  text: Type.String(),
  /** the run's value */
  value: Type.Number(),
  baseline: Type.Optional(Type.Number()),
  /** value - baseline */
  delta: Type.Optional(Type.Number()),
});
export type RankingQuery = Static<typeof RankingQuerySchema>;

/**
 * The queries behind a failing rule on a ranking measure (a mean over queries, which no one query
 * fails): against the baseline, how many queries dropped, tied or improved and the largest drops;
 * against a threshold, how many queries are below it and the lowest of them.
 */
export const RankingEvidenceSchema = Closed({
  metric: Type.String(),
  /** the rule as section 3 names it: `ndcg_cut.5 vs baseline`, `recall.10` */
  rule: Type.String(),
  kind: StringEnum(['vs_baseline', 'threshold']),
  /** threshold: the rule's minimum, which each query's value is held to */
  threshold: Type.Optional(Type.Number()),
  /** vs_baseline: the run compared with */
  baseline_run_id: Type.Optional(Type.String()),
  /** the queries with a value (vs_baseline: a value in both runs) */
  n: count,
  improved: Type.Optional(count),
  tied: Type.Optional(count),
  dropped: Type.Optional(count),
  /** vs_baseline: queries with a value in one run only, left out of n */
  unpaired: Type.Optional(count),
  below: Type.Optional(count),
  /**
   * vs_baseline: two-sided paired sign-flip p of run minus baseline over the n queries (exact where
   * countable, else 10,000 seeded permutations: then p_exact false); whether the change is more than
   * chance, which the rule's verdict on the means does not say. Absent in closeouts written before.
   */
  p_value: Type.Optional(Type.Number()),
  p_exact: Type.Optional(Type.Boolean()),
  /** vs_baseline: why no query could be compared (the baseline's stored report cannot be read) */
  unavailable: Type.Optional(Type.String()),
  /** at most 10: the largest drops (delta ascending, then query_id) or the lowest below the threshold (value ascending, then query_id) */
  queries: Type.Array(RankingQuerySchema),
});
export type RankingEvidence = Static<typeof RankingEvidenceSchema>;

export const CloseoutDocSchema = Closed({
  schema: Const(CLOSEOUT_SCHEMA_VERSION),
  suite: Type.String(),
  /** PASS/WATCH: ready to close; FAIL: the document says what blocks it */
  ready: Type.Boolean(),
  gate: Closed({
    gate_id: Type.String(),
    version: Type.String(),
    description: Type.String(),
    source: Type.Optional(Type.String()),
    verdict: VerdictSchema,
    rules: Type.Array(RuleResultSchema),
    reasons: Type.Array(Type.String()),
    checklist: Type.Array(ChecklistItemSchema),
  }),
  freeze: Closed({
    verified: Const(true),
    artifact_id: Type.String(),
    version: Type.String(),
    frozen_on: Type.String(),
    seal: Type.String(),
    files: Type.Array(
      Closed({
        part: StringEnum(['corpus', 'query_set', 'config']),
        file: Type.String(),
        id: Type.String(),
        sha256: Type.String(),
      }),
    ),
    rules: Type.Array(Type.String()),
    history: Type.Array(FreezeHistoryEntrySchema),
  }),
  run: Closed({
    run_id: Type.String(),
    started_at: Type.String(),
    system: ReportSystemSchema,
    settings: RunSettingsSchema,
    artifacts: ArtifactRefsSchema,
    /**
     * what the run changed from the frozen config, `key=value` (dotted keys, sorted): the suite's
     * config, its system's params and the run's `--set`; absent for a run stored before plans were kept
     */
    overrides: Type.Optional(Type.Array(Type.String())),
  }),
  baseline: OrNull(
    Closed({
      run_id: Type.String(),
      started_at: nullableString,
      note: nullableString,
      version: Type.String(),
      artifacts: ArtifactRefsSchema,
      version_changed: Type.Boolean(),
      reset_note: nullableString,
    }),
  ),
  determinism: Closed({
    replays: Type.Integer({ minimum: 0 }),
    seed: Type.Integer(),
    identical: Type.Boolean(),
    rollups: Type.Array(Type.String()),
    divergent: Type.Array(ReplayDivergenceSchema),
    replay_determinism: OrNull(MetricEntrySchema),
    fallback_determinism: OrNull(MetricEntrySchema),
  }),
  budget: Closed({ budget_compliance: OrNull(MetricEntrySchema), rule: OrNull(RuleResultSchema) }),
  failing_queries: Type.Array(QueryOutcomeSchema),
  /** per failing rule on a ranking measure, the queries that drove it; absent when there is none */
  ranking_evidence: Type.Optional(Type.Array(RankingEvidenceSchema)),
  /** what makes the closeout prove less than it seems: the run is its own baseline, nothing changed since it */
  warnings: Type.Optional(Type.Array(Type.String())),
  residuals: Type.Array(ResidualRiskSchema),
  sign_off: Type.Array(Closed({ role: Type.String() })),
});
export type CloseoutDoc = Static<typeof CloseoutDocSchema>;
