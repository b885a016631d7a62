/**
 * The reference engine's semantic selection answer (seed 001; src/engine/semantic.ts, `rgate
 * retrieve --mode semantic`): the memory-cli-v1 contract's fields (memory-cli-v1.ts), the ones it
 * leaves optional made required, each candidate with its `score` and `rank`, and the engine's own
 * account of how it chose: the fallback trace, the gates, the embedder, K. Closed: a field the engine
 * adds is declared here first.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const, OrNull, StringEnum } from '../keywords.js';
import { RetrievalConfigSchema, SemanticMethodSchema } from '../retrieval-config.js';
import { MemoryCliV1CandidateSchema, MemoryCliV1ResponseSchema } from './memory-cli-v1.js';

export const SelectCandidateSchema = Closed(
  Type.Required(Type.Pick(MemoryCliV1CandidateSchema, ['id', 'source_path', 'score', 'rank'])).properties,
);
export type SelectCandidate = Static<typeof SelectCandidateSchema>;

/** One step of the fallback chain: the semantic gates, then exact key, then path priority. */
export const SelectFallbackStepSchema = Closed({
  stage: StringEnum(['semantic', 'exact_key', 'path_priority']),
  outcome: StringEnum(['selected', 'gate_failed', 'no_candidate', 'skipped_disabled']),
  detail: Type.String(),
});
export type SelectFallbackStep = Static<typeof SelectFallbackStepSchema>;

export const SelectResultSchema = Closed({
  contract: Const('memory-cli-v1'),
  ...Type.Pick(MemoryCliV1ResponseSchema, [
    'selection_mode',
    'selected_id',
    'source_path',
    'confidence',
    'reason',
  ]).properties,
  /** the reason in words; `reason` is the machine-readable code */
  reason_detail: Type.String(),
  candidates: Type.Array(SelectCandidateSchema),
  fallback: Closed({
    triggered: Type.Boolean(),
    stage: OrNull(StringEnum(['exact_key', 'path_priority', 'no_match'])),
    trace: Type.Array(SelectFallbackStepSchema),
  }),
  gates: Closed({
    confidence_min: Type.Number(),
    ambiguity_margin: Type.Number(),
    top1: OrNull(Type.Number()),
    top2: OrNull(Type.Number()),
    confidence_passed: Type.Boolean(),
    ambiguity_passed: Type.Boolean(),
    /** which score the gates read: the cosine, or the normalised RRF score of BM25 + cosine */
    method: SemanticMethodSchema,
    /** hybrid_rrf only: the RRF constant */
    ...Type.Pick(RetrievalConfigSchema.properties.semantic, ['rrf_k']).properties,
  }),
  embedder: Type.String(),
  /** K of the cosine top-K, clamped to 10..15 */
  k: Type.Integer({ minimum: 1 }),
});
export type SelectResult = Static<typeof SelectResultSchema>;
