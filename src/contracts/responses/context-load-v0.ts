import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from '../ajv.js';

/**
 * context-load contract v0 (seed 000). Two shapes are accepted: the contract's `entries[]` (what rgate's
 * engine emits) and the real-world `files[]` variant (`path`, `selected_by`, with top-level
 * `fallback_level` / `fallback_attempts`). Either way every entry must carry the five-score
 * `score_breakdown`: "missing required ranking metadata in JSON mode is contract-invalid". Extra fields
 * are allowed (producers add diagnostics); only what the contract requires is checked.
 */
export interface ContextLoadV0Entry {
  record_id?: string;
  id?: string;
  source_path?: string;
  path?: string;
  provenance?: { source_path?: string; record_id?: string };
  selected_by?: string;
  text?: string;
  content?: string;
  chars?: number;
  truncated?: boolean;
  tags?: string[];
  score_breakdown: {
    lexical_score: number;
    evidence_score: number;
    outcome_score: number;
    freshness_score: number;
    combined_score: number;
  };
}

export interface ContextLoadV0Response {
  ranking_contract_version: 'v0';
  retrieval_profile: 'small' | 'medium' | 'large';
  weighting_mode: 'uniform' | 'evidence_outcome_bias';
  selected_count: number;
  entries?: ContextLoadV0Entry[];
  files?: ContextLoadV0Entry[];
  fallback_level?: string | number | null;
  fallback_attempts?: number | Array<string | { stage?: string; level?: string | number; outcome?: string }>;
  usage?: { files?: number; chars?: number; tokens?: number };
  no_match?: boolean;
  reason?: string | null;
  reason_detail?: string | null;
}

const unit = { type: 'number', minimum: 0, maximum: 1 } as const;
const entry = {
  type: 'object',
  required: ['score_breakdown'],
  properties: {
    record_id: { type: 'string', minLength: 1 },
    id: { type: 'string', minLength: 1 },
    source_path: { type: 'string', minLength: 1 },
    path: { type: 'string', minLength: 1 },
    provenance: { type: 'object' },
    selected_by: { type: 'string' },
    text: { type: 'string' },
    content: { type: 'string' },
    chars: { type: 'integer', minimum: 0 },
    truncated: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    score_breakdown: {
      type: 'object',
      required: ['lexical_score', 'evidence_score', 'outcome_score', 'freshness_score', 'combined_score'],
      properties: {
        lexical_score: unit,
        evidence_score: unit,
        outcome_score: unit,
        freshness_score: unit,
        combined_score: unit,
      },
    },
  },
  // an entry must say which record it is and where it came from (provenance)
  anyOf: [
    { required: ['record_id'], properties: { record_id: {} } },
    { required: ['id'], properties: { id: {} } },
    { required: ['path'], properties: { path: {} } },
  ],
} as const;

export const contextLoadV0Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/context-load-v0.json',
  title: 'context-load contract v0 result',
  type: 'object',
  required: ['ranking_contract_version', 'retrieval_profile', 'weighting_mode', 'selected_count'],
  properties: {
    ranking_contract_version: { const: 'v0' },
    retrieval_profile: { enum: ['small', 'medium', 'large'] },
    weighting_mode: { enum: ['uniform', 'evidence_outcome_bias'] },
    selected_count: { type: 'integer', minimum: 0 },
    entries: { type: 'array', items: entry },
    files: { type: 'array', items: entry },
    fallback_level: { type: ['string', 'integer', 'null'] },
    fallback_attempts: {
      anyOf: [
        { type: 'integer', minimum: 0 },
        { type: 'array', items: { type: ['string', 'object'] } },
      ],
    },
    usage: {
      type: 'object',
      properties: {
        files: { type: 'integer', minimum: 0 },
        chars: { type: 'integer', minimum: 0 },
        tokens: { type: 'integer', minimum: 0 },
      },
    },
    no_match: { type: 'boolean' },
    reason: { type: ['string', 'null'] },
    reason_detail: { type: ['string', 'null'] },
  },
  anyOf: [
    { required: ['entries'], properties: { entries: {} } },
    { required: ['files'], properties: { files: {} } },
  ],
} as const;

export const validateContextLoadV0: ValidateFunction<ContextLoadV0Response> =
  compileSchema<ContextLoadV0Response>(contextLoadV0Schema);
