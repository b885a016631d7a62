/**
 * AthenaMind `memory-cli retrieve` (seed 001), as the real CLI prints it (recorded outputs in
 * fixtures/memory-cli/). Every response carries `selection_mode`, `selected_id` and `source_path`;
 * the two may be null only for `no_match`, which must give its reason. Candidates are ranked by their
 * order (the CLI prints no rank and no `score`): each carries `confidence`, `lexical_score` (left out
 * when 0), `fused_score` (hybrid mode only), its own `selection_mode` and a `reason`. Fields the CLI
 * may add later are accepted: this contract states what rgate reads, not every field there is.
 *
 * What a measurement needs (`MemoryCliV1MeasurableSchema`): `selection_mode`, `selected_id`,
 * `source_path` (top-1 usefulness, source trace, selection-mode measures) and `candidates[]` with an
 * `id` each (the ranking is their order); the score fields, `fallback_used` and `fallback`, when
 * given, typed as below. Only the letter of seed 001 requires the answer's `confidence` and
 * `reason`, a non-empty `reason` on no_match, non-null `selected_id` / `source_path` otherwise, a
 * candidate's `selection_mode` from the known list, a score field on every candidate and a stated
 * `rank` equal to the position (the cross-check): breaking those is a listed violation, measured.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SelectionModeSchema } from '../selection-mode.js';
import { OrNull, StringEnum } from '../keywords.js';

/** Modes a memory-cli candidate reports for itself (not answer selection modes: `classic` is one). */
export const MEMORY_CLI_CANDIDATE_MODES = ['classic', 'semantic', 'hybrid_rrf'] as const;

/** The fields a candidate's score is read from, first present wins. */
export const MEMORY_CLI_SCORE_FIELDS = ['fused_score', 'confidence', 'lexical_score', 'score'] as const;

export const MemoryCliV1CandidateSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  source_path: Type.Optional(Type.String()),
  /** the candidate's own mode: `classic` (token overlap), `semantic`, `hybrid_rrf` */
  selection_mode: Type.Optional(StringEnum(MEMORY_CLI_CANDIDATE_MODES)),
  confidence: Type.Optional(Type.Number()),
  lexical_score: Type.Optional(Type.Number()),
  fused_score: Type.Optional(Type.Number()),
  reason: Type.Optional(Type.String()),
  /** an explicit score (earlier drafts of this contract); the CLI itself prints none */
  score: Type.Optional(Type.Number()),
  /** 1-based position, when a system states it; must equal the candidate's order */
  rank: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type MemoryCliV1Candidate = Static<typeof MemoryCliV1CandidateSchema>;

export const MemoryCliV1ResponseSchema = Type.Object(
  {
    selection_mode: SelectionModeSchema,
    selected_id: OrNull(Type.String()),
    source_path: OrNull(Type.String()),
    confidence: Type.Number(),
    reason: Type.String(),
    /** the CLI's own flag: a deterministic fallback chose the answer */
    fallback_used: Type.Optional(Type.Boolean()),
    semantic_hit: Type.Optional(Type.Boolean()),
    precision_hint: Type.Optional(Type.Number()),
    // "one of the score fields" is checked by the cross-check, whose message names them
    candidates: Type.Array(MemoryCliV1CandidateSchema),
    fallback: Type.Optional(
      Type.Object({
        triggered: Type.Optional(Type.Boolean()),
        stage: Type.Optional(OrNull(Type.String())),
        trace: Type.Optional(
          Type.Array(Type.Unsafe<{ stage?: string; outcome?: string }>({ type: 'object' })),
        ),
      }),
    ),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/memory-cli-v1.json',
    title: 'memory CLI v1 selection',
    if: { properties: { selection_mode: { const: 'no_match' } } },
    then: { properties: { reason: { type: 'string', minLength: 1 } } },
    else: {
      properties: {
        selected_id: { type: 'string', minLength: 1 },
        source_path: { type: 'string', minLength: 1 },
      },
    },
  },
);
export type MemoryCliV1Response = Static<typeof MemoryCliV1ResponseSchema>;

const MemoryCliV1MeasurableCandidateSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  source_path: Type.Optional(Type.String()),
  confidence: Type.Optional(Type.Number()),
  lexical_score: Type.Optional(Type.Number()),
  fused_score: Type.Optional(Type.Number()),
  score: Type.Optional(Type.Number()),
});

export const MemoryCliV1MeasurableSchema = Type.Object(
  {
    selection_mode: SelectionModeSchema,
    selected_id: OrNull(Type.String()),
    source_path: OrNull(Type.String()),
    reason: Type.Optional(Type.String()),
    fallback_used: MemoryCliV1ResponseSchema.properties.fallback_used,
    fallback: MemoryCliV1ResponseSchema.properties.fallback,
    candidates: Type.Array(MemoryCliV1MeasurableCandidateSchema),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/memory-cli-v1.measurable.json',
    title: 'memory CLI v1 selection: what a measurement needs',
  },
);
export type MemoryCliV1Measurable = Static<typeof MemoryCliV1MeasurableSchema>;
