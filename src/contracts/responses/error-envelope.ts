import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileSchema } from '../ajv.js';

/** The shared error envelope (seed 004): any contract may answer with it instead of a payload. */
export interface ErrorEnvelopeResponse {
  error: { code: string; message: string; action?: string };
}

export const errorEnvelopeSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/responses/error-envelope.json',
  title: 'error envelope {error: {code, message, action}}',
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', minLength: 1 },
        message: { type: 'string' },
        action: { type: 'string' },
      },
    },
  },
} as const;

export const validateErrorEnvelope: ValidateFunction<ErrorEnvelopeResponse> =
  compileSchema<ErrorEnvelopeResponse>(errorEnvelopeSchema);

/** True when a payload looks like an envelope (an object whose `error` is an object); it is then validated as one. */
export function looksLikeErrorEnvelope(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
  const e = (payload as Record<string, unknown>)['error'];
  return typeof e === 'object' && e !== null && !Array.isArray(e);
}
