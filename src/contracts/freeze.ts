import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from './ajv.js';

export const FREEZE_SCHEMA_VERSION = 'rgate-freeze/1';

/** One frozen version of a fixture set, kept in freeze.json's history (newest last). */
export interface FreezeHistoryEntry {
  version: string;
  frozen_on: string;
  corpus_id: string;
  query_set_id: string;
  config_id: string;
  /** why the baseline was reset (required when queries or config changed) */
  reset_note?: string;
}

/**
 * freeze.json of a fixture set (seed 000 "Fixture Freeze Binding"). Ids are `<set>/<part>@<version>#<16 hex>`;
 * the `*_sha256` fields are the full sha256 of the canonical content; `seal` is the sha256 of this
 * object's canonical JSON without `seal`, so any edit of the freeze itself is detected too.
 */
export interface Freeze {
  schema: typeof FREEZE_SCHEMA_VERSION;
  artifact_id: string;
  version: string;
  status: 'frozen';
  /** metadata only (a date the user gave, default the UTC date of freezing); never part of an id */
  frozen_on: string;
  files: { corpus: string; query_set: string; config: string };
  counts: { corpus_records: number; queries: number; judged_queries: number; judgments: number };
  corpus_id: string;
  corpus_sha256: string;
  query_set_id: string;
  query_set_sha256: string;
  config_id: string;
  config_sha256: string;
  /**
   * sha256 of the JSONL files' raw bytes when frozen: verify's fast path (identical bytes need no
   * parsing). A mismatch here is not an error; only the canonical `*_sha256` decide.
   */
  raw_sha256?: { corpus: string; query_set: string };
  rules: string[];
  history: FreezeHistoryEntry[];
  seal: string;
}

const sha = { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' } as const;
const nonEmpty = { type: 'string', minLength: 1 } as const;
const date = { type: 'string', format: 'date' } as const;
const count = { type: 'integer', minimum: 0 } as const;

export const freezeSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/freeze.json',
  title: 'rgate fixture freeze',
  type: 'object',
  properties: {
    schema: { const: FREEZE_SCHEMA_VERSION },
    artifact_id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
    version: nonEmpty,
    status: { const: 'frozen' },
    frozen_on: date,
    files: {
      type: 'object',
      properties: { corpus: nonEmpty, query_set: nonEmpty, config: nonEmpty },
      required: ['corpus', 'query_set', 'config'],
      additionalProperties: false,
    },
    counts: {
      type: 'object',
      properties: { corpus_records: count, queries: count, judged_queries: count, judgments: count },
      required: ['corpus_records', 'queries', 'judged_queries', 'judgments'],
      additionalProperties: false,
    },
    corpus_id: nonEmpty,
    corpus_sha256: sha,
    query_set_id: nonEmpty,
    query_set_sha256: sha,
    config_id: nonEmpty,
    config_sha256: sha,
    raw_sha256: {
      type: 'object',
      properties: { corpus: sha, query_set: sha },
      required: ['corpus', 'query_set'],
      additionalProperties: false,
    },
    rules: { type: 'array', items: nonEmpty },
    history: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          version: nonEmpty,
          frozen_on: date,
          corpus_id: nonEmpty,
          query_set_id: nonEmpty,
          config_id: nonEmpty,
          reset_note: nonEmpty,
        },
        required: ['version', 'frozen_on', 'corpus_id', 'query_set_id', 'config_id'],
        additionalProperties: false,
      },
    },
    seal: sha,
  },
  required: [
    'schema',
    'artifact_id',
    'version',
    'status',
    'frozen_on',
    'files',
    'counts',
    'corpus_id',
    'corpus_sha256',
    'query_set_id',
    'query_set_sha256',
    'config_id',
    'config_sha256',
    'rules',
    'history',
    'seal',
  ],
  additionalProperties: false,
} as const;

export const validateFreeze: ValidateFunction<Freeze> = compileSchema<Freeze>(freezeSchema);
