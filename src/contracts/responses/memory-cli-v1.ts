import type { ValidateFunction } from 'ajv/dist/2020.js';
import { SELECTION_MODES, type SelectionMode } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/**
 * memory CLI v1 semantic selection answer (seed 001): every response carries `selection_mode`,
 * `selected_id` and `source_path`; the two may be null only for `no_match`, which must give its reason.
 */
export interface MemoryCliV1Candidate {
  id: string;
  source_path?: string;
  score: number;
  rank?: number;
}
export interface MemoryCliV1Response {
  selection_mode: SelectionMode;
  selected_id: string | null;
  source_path: string | null;
  confidence: number;
  reason: string;
  candidates: MemoryCliV1Candidate[];
  fallback?: {
    triggered?: boolean;
    stage?: string | null;
    trace?: Array<{ stage?: string; outcome?: string }>;
  };
}

export const memoryCliV1Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/memory-cli-v1.json',
  title: 'memory CLI v1 selection',
  type: 'object',
  required: ['selection_mode', 'selected_id', 'source_path', 'confidence', 'reason', 'candidates'],
  properties: {
    selection_mode: { enum: [...SELECTION_MODES] },
    selected_id: { type: ['string', 'null'] },
    source_path: { type: ['string', 'null'] },
    confidence: { type: 'number' },
    reason: { type: 'string' },
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'score'],
        properties: {
          id: { type: 'string', minLength: 1 },
          source_path: { type: 'string' },
          score: { type: 'number' },
          rank: { type: 'integer', minimum: 1 },
        },
      },
    },
    fallback: {
      type: 'object',
      properties: {
        triggered: { type: 'boolean' },
        stage: { type: ['string', 'null'] },
        trace: { type: 'array', items: { type: 'object' } },
      },
    },
  },
  if: { properties: { selection_mode: { const: 'no_match' } } },
  then: { properties: { reason: { type: 'string', minLength: 1 } } },
  else: {
    properties: {
      selected_id: { type: 'string', minLength: 1 },
      source_path: { type: 'string', minLength: 1 },
    },
  },
} as const;

export const validateMemoryCliV1: ValidateFunction<MemoryCliV1Response> =
  compileSchema<MemoryCliV1Response>(memoryCliV1Schema);
