/**
 * The error envelope as rgate's reference engine (src/engine) answers with it: the shared envelope
 * (error-envelope.ts) with `action` always stated, since every engine error says what to do. The
 * contract keeps `action` optional: other systems' envelopes may leave it out.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed } from '../keywords.js';
import { ErrorEnvelopeResponseSchema } from './error-envelope.js';

export const ErrorEnvelopeSchema = Closed({
  error: Type.Required(ErrorEnvelopeResponseSchema.properties.error, { additionalProperties: false }),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;
