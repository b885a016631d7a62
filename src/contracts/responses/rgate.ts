import type { ValidateFunction } from 'ajv/dist/2020.js';
import { SELECTION_MODES, type SelectionMode } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** rgate's own response format: an Observation-shaped answer, the easiest one for a team to emit. */
export interface RgateResponseItem {
  id: string;
  source_path?: string;
  score: number;
  score_breakdown?: Record<string, number>;
  tags?: string[];
  chars?: number;
}
export interface RgateResponse {
  selection_mode?: SelectionMode;
  selected_id?: string | null;
  source_path?: string | null;
  no_match_reason?: string;
  ranked?: RgateResponseItem[];
  /** TREC-style alias of `ranked` (`{results: [{id, score}]}`) */
  results?: RgateResponseItem[];
  fallback?: { triggered: boolean; stage?: string | null; attempts?: string[] };
  usage?: { files?: number; chars?: number; tokens?: number };
}

const count = { type: 'integer', minimum: 0 } as const;
const item = {
  type: 'object',
  required: ['id', 'score'],
  properties: {
    id: { type: 'string', minLength: 1 },
    source_path: { type: 'string' },
    score: { type: 'number' },
    score_breakdown: { type: 'object', additionalProperties: { type: 'number' } },
    tags: { type: 'array', items: { type: 'string' } },
    chars: count,
  },
  additionalProperties: false,
} as const;

export const rgateResponseSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/rgate.json',
  title: "rgate's own response format",
  type: 'object',
  properties: {
    selection_mode: { enum: [...SELECTION_MODES] },
    selected_id: { type: ['string', 'null'] },
    source_path: { type: ['string', 'null'] },
    no_match_reason: { type: 'string' },
    ranked: { type: 'array', items: item },
    results: { type: 'array', items: item },
    fallback: {
      type: 'object',
      required: ['triggered'],
      properties: {
        triggered: { type: 'boolean' },
        stage: { type: ['string', 'null'] },
        attempts: { type: 'array', items: { type: 'string' } },
      },
      additionalProperties: false,
    },
    usage: {
      type: 'object',
      properties: { files: count, chars: count, tokens: count },
      additionalProperties: false,
    },
  },
  // our own format: strict, so a typo (`selectedId`) is caught rather than silently ignored
  additionalProperties: false,
  anyOf: [
    { required: ['ranked'], properties: { ranked: {} } },
    { required: ['results'], properties: { results: {} } },
    { required: ['selection_mode'], properties: { selection_mode: {} } },
  ],
} as const;

export const validateRgateResponse: ValidateFunction<RgateResponse> =
  compileSchema<RgateResponse>(rgateResponseSchema);
