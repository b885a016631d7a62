/** The shared error envelope (seed 004): any contract may answer with it instead of a payload. */
import { Type, type Static } from '@sinclair/typebox';

export const ErrorEnvelopeResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ minLength: 1 }),
      message: Type.String(),
      action: Type.Optional(Type.String()),
    }),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/error-envelope.json',
    title: 'error envelope {error: {code, message, action}}',
  },
);
export type ErrorEnvelopeResponse = Static<typeof ErrorEnvelopeResponseSchema>;
