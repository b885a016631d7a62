import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { PartialConfig } from '../core/config-defaults.js';
import { compileSchema } from './ajv.js';

const posInt = { type: 'integer', minimum: 1 } as const;
const unit = { type: 'number', minimum: 0, maximum: 1 } as const;

/**
 * config.json of a fixture set: a partial RetrievalConfig (src/core/types.ts). Anything left out takes
 * DEFAULT_CONFIG's value (src/core/config-defaults.ts `resolveConfig`); the resolved config is hashed.
 */
export const configSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/config.json',
  title: 'rgate retrieval config (partial; defaults fill the rest)',
  type: 'object',
  properties: {
    $schema: { type: 'string' },
    mode: { enum: ['bm25', 'context-load', 'semantic'] },
    retrieval_profile: { enum: ['small', 'medium', 'large'] },
    weighting_mode: { enum: ['uniform', 'evidence_outcome_bias'] },
    k: posInt,
    budgets: {
      type: 'object',
      properties: { max_files: posInt, max_chars_per_file: posInt, tokens: posInt },
      additionalProperties: false,
    },
    fallback: {
      type: 'object',
      properties: { enabled: { type: 'boolean' } },
      additionalProperties: false,
    },
    semantic: {
      type: 'object',
      properties: { confidence_min: unit, ambiguity_margin: unit },
      additionalProperties: false,
    },
    embedding: {
      type: 'object',
      properties: { dimensions: posInt },
      additionalProperties: false,
    },
    bm25: {
      type: 'object',
      properties: {
        k1: { type: 'number', minimum: 0 },
        b: unit,
        formula: { enum: ['lucene', 'fts5'] },
        length_norm: { enum: ['exact', 'lucene'] },
      },
      additionalProperties: false,
    },
    analyzer: {
      type: 'object',
      properties: {
        lowercase: { type: 'boolean' },
        stopwords: { type: 'boolean' },
        stemmer: { enum: ['porter', 'none'] },
      },
      additionalProperties: false,
    },
    as_of: { type: 'string', format: 'date-time' },
    freshness_half_life_days: { type: 'number', exclusiveMinimum: 0 },
    sensitive_tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
  },
  additionalProperties: false,
} as const;

export const validateConfig: ValidateFunction<PartialConfig> = compileSchema<PartialConfig>(configSchema);
