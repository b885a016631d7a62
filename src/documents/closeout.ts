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
  /** what makes the closeout prove less than it seems: the run is its own baseline, nothing changed since it */
  warnings: Type.Optional(Type.Array(Type.String())),
  residuals: Type.Array(ResidualRiskSchema),
  sign_off: Type.Array(Closed({ role: Type.String() })),
});
export type CloseoutDoc = Static<typeof CloseoutDocSchema>;
