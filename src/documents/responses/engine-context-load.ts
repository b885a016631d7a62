/**
 * The reference engine's context-load answer (seed 000; src/engine/context-load.ts, `rgate retrieve
 * --mode context-load`): the context-load v0 contract's fields (context-load-v0.ts), the ones it
 * leaves optional made required and narrowed to what the engine states (an entry's integer rank, the
 * fallback stages by name), plus the engine's account of its choice: weights, budgets in force, the
 * candidate pool, what was dropped or cut, each entry's provenance and confidence bounds, and the
 * sensitive-tag policy. Closed: a field the engine adds is declared here first.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CorpusRecordSchema, RecordKindSchema } from '../corpus-record.js';
import { FallbackStageSchema } from '../fallback-stage.js';
import { Closed, Const, OrNull, StringEnum } from '../keywords.js';
import { WeightsSchema } from '../retrieval-config.js';
import { ContextLoadV0EntrySchema, ContextLoadV0ResponseSchema } from './context-load-v0.js';

const count = Type.Integer({ minimum: 0 });
const recordId = CorpusRecordSchema.properties.id;
const sourcePath = CorpusRecordSchema.properties.source_path;

export const ScoreBreakdownSchema = Closed(ContextLoadV0EntrySchema.properties.score_breakdown.properties);
export type ScoreBreakdown = Static<typeof ScoreBreakdownSchema>;

export const ProvenanceSchema = Closed({
  source_path: sourcePath,
  record_id: recordId,
  kind: RecordKindSchema,
  captured_at: CorpusRecordSchema.properties.captured_at,
  /** sha256 of the record's full text (before truncation) */
  text_sha256: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
});
export type Provenance = Static<typeof ProvenanceSchema>;

/**
 * Bounded confidence: `value` is the combined score; the interval shows how far it could move if the
 * record's missing metadata (evidence / outcome absent, scored 0) were known: `lower` counts missing
 * components as 0 (= value), `upper` as 1. Both equal `value` when the record states every component.
 */
export const ConfidenceBoundsSchema = Closed({
  value: Type.Number(),
  lower: Type.Number(),
  upper: Type.Number(),
  basis: Const('missing_components'),
  missing: Type.Array(StringEnum(['evidence', 'outcome'])),
});
export type ConfidenceBounds = Static<typeof ConfidenceBoundsSchema>;

export const ContextLoadEntrySchema = Closed({
  rank: Type.Integer({ minimum: 1 }),
  ...Type.Required(
    Type.Pick(ContextLoadV0EntrySchema, ['record_id', 'source_path', 'text', 'chars', 'truncated']),
  ).properties,
  kind: RecordKindSchema,
  title: CorpusRecordSchema.properties.title,
  score_breakdown: ScoreBreakdownSchema,
  provenance: ProvenanceSchema,
  confidence: ConfidenceBoundsSchema,
  tags: ContextLoadV0EntrySchema.properties.tags,
});
export type ContextLoadEntry = Static<typeof ContextLoadEntrySchema>;

export const ContextLoadFallbackAttemptSchema = Closed({
  stage: FallbackStageSchema,
  /** how the stage chooses candidates (documented rule) */
  rule: Type.String(),
  candidates: count,
  outcome: StringEnum(['selected', 'empty', 'skipped_disabled']),
});
export type FallbackAttempt = Static<typeof ContextLoadFallbackAttemptSchema>;

export const DropReasonSchema = StringEnum(['budget_max_files', 'budget_tokens']);
export type DropReason = Static<typeof DropReasonSchema>;

export const DroppedCandidateSchema = Closed({
  record_id: recordId,
  source_path: sourcePath,
  combined_score: Type.Number(),
  reason: DropReasonSchema,
});
export type DroppedCandidate = Static<typeof DroppedCandidateSchema>;

export const TruncationReasonSchema = StringEnum(['truncated_max_chars', 'truncated_tokens']);
export type TruncationReason = Static<typeof TruncationReasonSchema>;

export const TruncatedEntrySchema = Closed({
  record_id: recordId,
  source_path: sourcePath,
  original_chars: count,
  emitted_chars: count,
  reason: TruncationReasonSchema,
});
export type TruncatedEntry = Static<typeof TruncatedEntrySchema>;

const contractUsage = Type.Required(Type.Pick(ContextLoadV0ResponseSchema, ['usage'])).properties.usage;

export const ContextLoadResultSchema = Closed({
  ...Type.Pick(ContextLoadV0ResponseSchema, [
    'ranking_contract_version',
    'retrieval_profile',
    'weighting_mode',
    'selected_count',
  ]).properties,
  weights: WeightsSchema,
  task: Type.String(),
  /** the fallback stage that produced the entries (null when nothing matched) */
  fallback_level: OrNull(FallbackStageSchema),
  fallback_attempts: Type.Array(ContextLoadFallbackAttemptSchema),
  /**
   * budgets in force (request > config.budgets > profile default); a request's budget that is not a
   * non-negative integer is echoed as given, with `reason: invalid_request`
   */
  budgets: Closed({ max_files: Type.Number(), max_chars_per_file: Type.Number(), tokens: Type.Number() }),
  /** candidate pool of the stage that answered: how many matched the stage, how many were kept (profile size) */
  pool: Closed({ size_limit: count, stage_candidates: count, pooled: count, beyond_pool: count }),
  usage: Closed({ ...Type.Required(contractUsage).properties, token_estimate: Const('ceil(chars/4)') }),
  entries: Type.Array(ContextLoadEntrySchema),
  dropped: Type.Array(DroppedCandidateSchema),
  truncated: Type.Array(TruncatedEntrySchema),
  /** `reason` is null when entries were selected, a machine-readable code otherwise */
  ...Type.Required(Type.Pick(ContextLoadV0ResponseSchema, ['no_match', 'reason', 'reason_detail']))
    .properties,
  /** context-load output is tactical and non-authoritative until promoted (seed 000) */
  authority: Const('non_authoritative'),
  /** sensitive-tag policy: records with these tags are never candidates; how many the corpus holds */
  policy: Closed({ sensitive_tags: Type.Array(Type.String()), withheld_records: count }),
});
export type ContextLoadResult = Static<typeof ContextLoadResultSchema>;
