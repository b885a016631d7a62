/**
 * context-load contract v0 (seed 000). Two shapes are accepted: the contract's `entries[]` (what rgate's
 * engine emits) and the real-world `files[]` variant (`path`, `selected_by`, with top-level
 * `fallback_level` / `fallback_attempts`). Either way every entry must carry the five-score
 * `score_breakdown`: "missing required ranking metadata in JSON mode is contract-invalid". Extra fields
 * are allowed (producers add diagnostics); only what the contract requires is checked.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, Const, StringEnum } from '../keywords.js';

const unit = Type.Number({ minimum: 0, maximum: 1 });
const count = Type.Integer({ minimum: 0 });
const nonEmpty = Type.String({ minLength: 1 });

/** Where an entry came from, as a producer may nest it (only the two fields rgate reads are typed). */
const ProvenanceSchema = Type.Unsafe<{ source_path?: string; record_id?: string }>(AnyObject());

export const ContextLoadV0EntrySchema = Type.Object(
  {
    record_id: Type.Optional(nonEmpty),
    id: Type.Optional(nonEmpty),
    source_path: Type.Optional(nonEmpty),
    path: Type.Optional(nonEmpty),
    provenance: Type.Optional(ProvenanceSchema),
    selected_by: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    content: Type.Optional(Type.String()),
    chars: Type.Optional(count),
    truncated: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Array(Type.String())),
    score_breakdown: Type.Object({
      lexical_score: unit,
      evidence_score: unit,
      outcome_score: unit,
      freshness_score: unit,
      combined_score: unit,
    }),
  },
  {
    // an entry must say which record it is and where it came from (provenance)
    anyOf: [
      { required: ['record_id'], properties: { record_id: {} } },
      { required: ['id'], properties: { id: {} } },
      { required: ['path'], properties: { path: {} } },
    ],
  },
);
export type ContextLoadV0Entry = Static<typeof ContextLoadV0EntrySchema>;

/** A stage as `fallback_attempts` may list it: a name, or an object naming it. */
const FallbackAttemptSchema = Type.Unsafe<
  string | { stage?: string; level?: string | number; outcome?: string }
>({ type: ['string', 'object'] });

export const ContextLoadV0ResponseSchema = Type.Object(
  {
    ranking_contract_version: Const('v0'),
    retrieval_profile: StringEnum(['small', 'medium', 'large']),
    weighting_mode: StringEnum(['uniform', 'evidence_outcome_bias']),
    selected_count: count,
    entries: Type.Optional(Type.Array(ContextLoadV0EntrySchema)),
    files: Type.Optional(Type.Array(ContextLoadV0EntrySchema)),
    fallback_level: Type.Optional(
      Type.Unsafe<string | number | null>({ type: ['string', 'integer', 'null'] }),
    ),
    fallback_attempts: Type.Optional(
      Type.Unsafe<number | Array<string | { stage?: string; level?: string | number; outcome?: string }>>({
        anyOf: [count, Type.Array(FallbackAttemptSchema)],
      }),
    ),
    usage: Type.Optional(
      Type.Object({ files: Type.Optional(count), chars: Type.Optional(count), tokens: Type.Optional(count) }),
    ),
    no_match: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'] })),
    reason_detail: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'] })),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/context-load-v0.json',
    title: 'context-load contract v0 result',
    anyOf: [
      { required: ['entries'], properties: { entries: {} } },
      { required: ['files'], properties: { files: {} } },
    ],
  },
);
export type ContextLoadV0Response = Static<typeof ContextLoadV0ResponseSchema>;
