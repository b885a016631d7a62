import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const } from './keywords.js';

export const FREEZE_SCHEMA_VERSION = 'rgate-freeze/1';

const sha = Type.String({ pattern: '^sha256:[0-9a-f]{64}$' });
const nonEmpty = Type.String({ minLength: 1 });
const date = Type.String({ format: 'date' });
const count = Type.Integer({ minimum: 0 });

/** One frozen version of a fixture set, kept in freeze.json's history (newest last). */
export const FreezeHistoryEntrySchema = Closed({
  version: nonEmpty,
  frozen_on: date,
  corpus_id: nonEmpty,
  query_set_id: nonEmpty,
  config_id: nonEmpty,
  /** why the baseline was reset (required when queries or config changed) */
  reset_note: Type.Optional(nonEmpty),
});
export type FreezeHistoryEntry = Static<typeof FreezeHistoryEntrySchema>;

/**
 * freeze.json of a fixture set (seed 000 "Fixture Freeze Binding"). Ids are `<set>/<part>@<version>#<16 hex>`;
 * the `*_sha256` fields are the full sha256 of the canonical content; `seal` is the sha256 of this
 * object's canonical JSON without `seal`, so any edit of the freeze itself is detected too.
 */
export const FreezeSchema = Closed(
  {
    schema: Const(FREEZE_SCHEMA_VERSION),
    artifact_id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' }),
    version: nonEmpty,
    status: Const('frozen'),
    /** metadata only (a date the user gave, default the UTC date of freezing); never part of an id */
    frozen_on: date,
    files: Closed({ corpus: nonEmpty, query_set: nonEmpty, config: nonEmpty }),
    counts: Closed({ corpus_records: count, queries: count, judged_queries: count, judgments: count }),
    corpus_id: nonEmpty,
    corpus_sha256: sha,
    query_set_id: nonEmpty,
    query_set_sha256: sha,
    config_id: nonEmpty,
    config_sha256: sha,
    /**
     * sha256 of the JSONL files' raw bytes when frozen: verify's fast path (identical bytes need no
     * parsing). A mismatch here is not an error; only the canonical `*_sha256` decide.
     */
    raw_sha256: Type.Optional(Closed({ corpus: sha, query_set: sha })),
    rules: Type.Array(nonEmpty),
    history: Type.Array(FreezeHistoryEntrySchema, { minItems: 1 }),
    seal: sha,
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/freeze.json',
    title: 'rgate fixture freeze',
  },
);
export type Freeze = Static<typeof FreezeSchema>;
