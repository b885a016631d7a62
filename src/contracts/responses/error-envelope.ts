import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ErrorEnvelopeResponseSchema, type ErrorEnvelopeResponse } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/** The shared error envelope (seed 004); the schema and its type are src/documents/responses/error-envelope.ts. */
export const validateErrorEnvelope: ValidateFunction<ErrorEnvelopeResponse> =
  compileSchema<ErrorEnvelopeResponse>(ErrorEnvelopeResponseSchema, 'error-envelope-response');

/** True when a payload looks like an envelope (an object whose `error` is an object); it is then validated as one. */
export function looksLikeErrorEnvelope(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
  const e = (payload as Record<string, unknown>)['error'];
  return typeof e === 'object' && e !== null && !Array.isArray(e);
}
