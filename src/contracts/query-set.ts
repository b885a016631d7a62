import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { QueryRecord } from '../core/types.js';
import { compileSchema } from './ajv.js';

const nonEmpty = { type: 'string', minLength: 1 } as const;
const strings = { type: 'array', items: nonEmpty } as const;

/** One line of a query-set JSONL file: a QueryRecord (src/core/types.ts) with its judgments. */
export const queryRecordSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/query-record.json',
  title: 'rgate query record (one JSONL line)',
  type: 'object',
  properties: {
    query_id: nonEmpty,
    text: { type: 'string' },
    profile: { enum: ['small', 'medium', 'large'] },
    exact_key: nonEmpty,
    tags: strings,
    // graded judgments: record id -> integer grade (higher = more relevant, 0 = judged not relevant)
    qrels: { type: 'object', additionalProperties: { type: 'integer' } },
    useful_ids: strings,
    useful_paths: strings,
    must_include_signals_any: strings,
    must_include_tags_any: strings,
    must_exclude_tags_all: strings,
    expect: {
      type: 'object',
      properties: {
        selection_mode: { enum: ['semantic', 'fallback_exact_key', 'fallback_path_priority', 'no_match'] },
        no_match: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    embedding: { type: 'array', items: { type: 'number' } },
  },
  required: ['query_id', 'text'],
  additionalProperties: false,
} as const;

export const validateQueryLine: ValidateFunction<QueryRecord> = compileSchema<QueryRecord>(queryRecordSchema);

/** One line of a BEIR queries.jsonl (`_id`, `text`, optional `metadata`), imported into QueryRecord. */
export interface BeirQueryLine {
  _id: string;
  text: string;
  metadata?: Record<string, unknown>;
}

export const beirQuerySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/beir-query.json',
  type: 'object',
  properties: {
    _id: nonEmpty,
    text: { type: 'string' },
    title: { type: 'string' },
    metadata: { type: 'object' },
  },
  required: ['_id', 'text'],
  additionalProperties: false,
} as const;

export const validateBeirQueryLine: ValidateFunction<BeirQueryLine> =
  compileSchema<BeirQueryLine>(beirQuerySchema);
