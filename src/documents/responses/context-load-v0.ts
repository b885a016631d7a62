/**
 * context-load contract v0 (seed 000). Two shapes are accepted: the contract's `entries[]` (what rgate's
 * engine emits) and the real-world `files[]` variant (`path`, `selected_by`, with top-level
 * `fallback_level` / `fallback_attempts`). Extra fields are allowed (producers add diagnostics).
 *
 * Two schemas, one set of field declarations:
 * - **measurable** (`ContextLoadV0MeasurableSchema`): what a measurement needs. A list of entries
 *   (`entries` or `files`), each naming its record (`record_id`, `id` or `path`) and carrying a
 *   combined score, inside `score_breakdown` or on the entry itself (cortex-coach puts it there).
 *   The fields the normaliser reads when present (`fallback_level`, `fallback_attempts`, `usage`,
 *   `no_match`, `reason`, an entry's `rank`, `selected_by`, `chars`, `text`, `tags`) are typed so a
 *   wrong type cannot reach a measure.
 * - **full** (`ContextLoadV0ResponseSchema`): the letter of seed 000, which adds what no measure reads:
 *   `ranking_contract_version: "v0"`, `retrieval_profile`, `weighting_mode`, `selected_count` (equal to
 *   the number of entries, a cross-check), and the five-score `score_breakdown` with every score in
 *   [0, 1] ("missing required ranking metadata in JSON mode is contract-invalid").
 * A response that passes the measurable schema is measured; what it breaks of the full one is listed
 * as its violations and counts against `contract_validity`.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, Const } from '../keywords.js';
import { ProfileSchema } from '../profile.js';
import { WeightingModeSchema } from '../retrieval-config.js';

const unit = Type.Number({ minimum: 0, maximum: 1 });
const count = Type.Integer({ minimum: 0 });
const nonEmpty = Type.String({ minLength: 1 });

/** Where an entry came from, as a producer may nest it (only the two fields rgate reads are typed). */
const ProvenanceSchema = Type.Unsafe<{ source_path?: string; record_id?: string }>(AnyObject());

/** Entry fields both schemas declare alike. */
const entryFields = {
  record_id: Type.Optional(nonEmpty),
  id: Type.Optional(nonEmpty),
  source_path: Type.Optional(nonEmpty),
  path: Type.Optional(nonEmpty),
  provenance: Type.Optional(ProvenanceSchema),
  selected_by: Type.Optional(Type.String()),
  /** 1-based position among the ranked candidates; null for entries that are not ranked (control plane) */
  rank: Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1 })),
  text: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  excerpt: Type.Optional(Type.String()),
  chars: Type.Optional(count),
  truncated: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Array(Type.String())),
};

// an entry must say which record it is and where it came from (provenance)
const entryNamed = [
  { required: ['record_id'], properties: { record_id: {} } },
  { required: ['id'], properties: { id: {} } },
  { required: ['path'], properties: { path: {} } },
];

export const ContextLoadV0MeasurableEntrySchema = Type.Object(
  {
    ...entryFields,
    /** where cortex-coach puts the combined score (seed 000 puts it in score_breakdown) */
    combined_score: Type.Optional(Type.Number()),
    score_breakdown: Type.Optional(
      Type.Object({
        lexical_score: Type.Optional(Type.Number()),
        evidence_score: Type.Optional(Type.Number()),
        outcome_score: Type.Optional(Type.Number()),
        freshness_score: Type.Optional(Type.Number()),
        combined_score: Type.Optional(Type.Number()),
      }),
    ),
  },
  {
    allOf: [
      { anyOf: entryNamed },
      {
        anyOf: [
          {
            required: ['score_breakdown'],
            properties: {
              score_breakdown: {
                type: 'object',
                required: ['combined_score'],
                properties: { combined_score: {} },
              },
            },
          },
          { required: ['combined_score'], properties: { combined_score: {} } },
        ],
      },
    ],
  },
);
export type ContextLoadV0MeasurableEntry = Static<typeof ContextLoadV0MeasurableEntrySchema>;

export const ContextLoadV0EntrySchema = Type.Object(
  {
    ...entryFields,
    score_breakdown: Type.Object({
      lexical_score: unit,
      evidence_score: unit,
      outcome_score: unit,
      freshness_score: unit,
      combined_score: unit,
    }),
  },
  { anyOf: entryNamed },
);
export type ContextLoadV0Entry = Static<typeof ContextLoadV0EntrySchema>;

/** A stage as `fallback_attempts` may list it: a name, or an object naming it. */
const FallbackAttemptSchema = Type.Unsafe<
  string | { stage?: string; level?: string | number; outcome?: string }
>({ type: ['string', 'object'] });

/** Response fields both schemas declare alike (everything a measure may read besides the entries). */
const responseFields = {
  fallback_level: Type.Optional(Type.Unsafe<string | number | null>({ type: ['string', 'integer', 'null'] })),
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
};

const entriesOrFiles = [
  { required: ['entries'], properties: { entries: {} } },
  { required: ['files'], properties: { files: {} } },
];

export const ContextLoadV0MeasurableSchema = Type.Object(
  {
    ...responseFields,
    entries: Type.Optional(Type.Array(ContextLoadV0MeasurableEntrySchema)),
    files: Type.Optional(Type.Array(ContextLoadV0MeasurableEntrySchema)),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/context-load-v0.measurable.json',
    title: 'context-load contract v0 result: what a measurement needs',
    anyOf: entriesOrFiles,
  },
);
export type ContextLoadV0Measurable = Static<typeof ContextLoadV0MeasurableSchema>;

export const ContextLoadV0ResponseSchema = Type.Object(
  {
    ...responseFields,
    ranking_contract_version: Const('v0'),
    retrieval_profile: ProfileSchema,
    weighting_mode: WeightingModeSchema,
    selected_count: count,
    entries: Type.Optional(Type.Array(ContextLoadV0EntrySchema)),
    files: Type.Optional(Type.Array(ContextLoadV0EntrySchema)),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/context-load-v0.json',
    title: 'context-load contract v0 result',
    anyOf: entriesOrFiles,
  },
);
export type ContextLoadV0Response = Static<typeof ContextLoadV0ResponseSchema>;
