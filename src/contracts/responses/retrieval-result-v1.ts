import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from '../ajv.js';

/**
 * retrieval-result-v1 (seed 003): top-K chunks by cosine similarity, 768-dimension query embeddings,
 * K clamped to 10..15 (so at most 15 results), rank 1..k in order, `results: []` with `k_returned: 0`
 * for "nothing relevant". `score` is a similarity (higher is better).
 */
export interface RetrievalResultV1Item {
  chunk_id: string;
  document_id: string;
  text_content: string;
  page: number | null;
  section: string | null;
  coordinates: unknown;
  rank: number;
  score: number;
}
export interface RetrievalResultV1Response {
  schema_version: string;
  query_embedding_dimensions: 768;
  k_requested: number;
  k_returned: number;
  query_hash?: string;
  results: RetrievalResultV1Item[];
}

export const retrievalResultV1Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/retrieval-result-v1.json',
  title: 'retrieval result v1 (top-K chunks)',
  type: 'object',
  required: ['schema_version', 'query_embedding_dimensions', 'k_requested', 'k_returned', 'results'],
  properties: {
    schema_version: { type: 'string', pattern: '^1(\\.|$)' },
    query_embedding_dimensions: { const: 768 },
    k_requested: { type: 'integer', minimum: 1 },
    k_returned: { type: 'integer', minimum: 0, maximum: 15 },
    query_hash: { type: 'string' },
    results: {
      type: 'array',
      maxItems: 15,
      items: {
        type: 'object',
        required: [
          'chunk_id',
          'document_id',
          'text_content',
          'page',
          'section',
          'coordinates',
          'rank',
          'score',
        ],
        properties: {
          chunk_id: { type: 'string', minLength: 1 },
          document_id: { type: 'string', minLength: 1 },
          text_content: { type: 'string' },
          page: { type: ['integer', 'null'], minimum: 0 },
          section: { type: ['string', 'null'] },
          coordinates: { type: ['object', 'array', 'null'] },
          rank: { type: 'integer', minimum: 1, maximum: 15 },
          score: { type: 'number' },
        },
      },
    },
  },
} as const;

export const validateRetrievalResultV1: ValidateFunction<RetrievalResultV1Response> =
  compileSchema<RetrievalResultV1Response>(retrievalResultV1Schema);
