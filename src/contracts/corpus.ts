import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from './ajv.js';

/**
 * One line of a corpus JSONL file. Either rgate's own record (`id`, ...) or a BEIR record
 * (`_id`, `title`, `text`, `metadata?`), accepted as is; src/snapshot normalises both into
 * CorpusRecord (src/core/types.ts), filling `source_path` (= id), `kind` ('canonical') and
 * `captured_at` (the config's `as_of`) when absent. Exactly one of `id` / `_id` must be present: checked by
 * `corpusLineId` (a oneOf would give ajv's unreadable "must match exactly one schema").
 */
export interface CorpusLine {
  id?: string;
  _id?: string;
  source_path?: string;
  title?: string;
  text: string;
  kind?: 'canonical' | 'tactical';
  captured_at?: string;
  evidence?: number;
  outcome?: number;
  tags?: string[];
  trust_class?: string;
  key?: string;
  path_priority?: number;
  level?: 'summary' | 'intermediate' | 'leaf';
  parent_id?: string;
  embedding?: number[];
  source?: { sha256: string; size: number; mtime: string };
  metadata?: Record<string, unknown>;
}

const nonEmpty = { type: 'string', minLength: 1 } as const;
const unit = { type: 'number', minimum: 0, maximum: 1 } as const;

export const corpusRecordSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/corpus-record.json',
  title: 'rgate corpus record (one JSONL line)',
  type: 'object',
  properties: {
    id: nonEmpty,
    _id: nonEmpty,
    source_path: nonEmpty,
    title: { type: 'string' },
    text: { type: 'string' },
    kind: { enum: ['canonical', 'tactical'] },
    captured_at: { type: 'string', format: 'date-time' },
    evidence: unit,
    outcome: unit,
    tags: { type: 'array', items: nonEmpty },
    trust_class: { type: 'string' },
    key: nonEmpty,
    path_priority: { type: 'number' },
    level: { enum: ['summary', 'intermediate', 'leaf'] },
    parent_id: nonEmpty,
    embedding: { type: 'array', items: { type: 'number' } },
    source: {
      type: 'object',
      properties: {
        sha256: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
        size: { type: 'integer', minimum: 0 },
        mtime: { type: 'string', format: 'date-time' },
      },
      required: ['sha256', 'size', 'mtime'],
      additionalProperties: false,
    },
    // BEIR keeps per-document extras here; carried but not used.
    metadata: { type: 'object' },
  },
  required: ['text'],
  additionalProperties: false,
} as const;

export const validateCorpusLine: ValidateFunction<CorpusLine> = compileSchema<CorpusLine>(corpusRecordSchema);

/** The record's id, or the `/path: message` problem when it has none or both of `id` and `_id`. */
export function corpusLineId(line: CorpusLine): { id: string } | { problem: string } {
  if (line.id !== undefined && line._id !== undefined)
    return { problem: '/_id: give either id or _id, not both' };
  const id = line.id ?? line._id;
  return id === undefined ? { problem: '/id: is required' } : { id };
}
