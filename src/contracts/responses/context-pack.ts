import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from '../ajv.js';

/** ContextPack (seed 004), the answer to a RetrievalQuery. The error envelope is validated separately. */
export interface ContextPackItem {
  score: number;
  source: string;
  offset_start?: number;
  offset_end?: number;
  trust_class?: string;
  chunk_hash?: string;
  payload?: Record<string, unknown>;
}
export interface ContextPackResponse {
  context_text: string;
  items: ContextPackItem[];
  filters?: Record<string, unknown>;
  budgets?: { tokens?: number; latency_ms?: number };
  usage?: { tokens?: number; latency_ms?: number };
  transport?: 'direct' | 'gateway';
  retrieved_at?: string;
  telemetry_id?: string;
}

/** The request rgate POSTs (seed 004 RetrievalQuery). */
export interface RetrievalQuery {
  query: string;
  top_k: number;
  filters: Record<string, string>;
  overlay_policy: 'include' | 'skip';
  transport: 'direct' | 'gateway';
  budgets: { tokens?: number; latency_ms?: number };
}

const count = { type: 'integer', minimum: 0 } as const;
export const contextPackSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/context-pack.json',
  title: 'ContextPack',
  type: 'object',
  required: ['context_text', 'items'],
  properties: {
    context_text: { type: 'string' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['score', 'source'],
        properties: {
          score: { type: 'number' },
          source: { type: 'string', minLength: 1 },
          offset_start: count,
          offset_end: count,
          trust_class: { type: 'string' },
          chunk_hash: { type: 'string' },
          payload: { type: 'object' },
        },
      },
    },
    filters: { type: 'object' },
    budgets: { type: 'object', properties: { tokens: count, latency_ms: count } },
    usage: { type: 'object', properties: { tokens: count, latency_ms: count } },
    transport: { enum: ['direct', 'gateway'] },
    retrieved_at: { type: 'string', format: 'date-time' },
    telemetry_id: { type: 'string' },
  },
} as const;

export const validateContextPack: ValidateFunction<ContextPackResponse> =
  compileSchema<ContextPackResponse>(contextPackSchema);
