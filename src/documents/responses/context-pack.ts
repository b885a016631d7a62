/** ContextPack (seed 004), the answer to a RetrievalQuery. The error envelope is validated separately. */
import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, StringEnum } from '../keywords.js';

const count = Type.Integer({ minimum: 0 });
const TRANSPORTS = ['direct', 'gateway'] as const;

export const ContextPackItemSchema = Type.Object({
  score: Type.Number(),
  source: Type.String({ minLength: 1 }),
  offset_start: Type.Optional(count),
  offset_end: Type.Optional(count),
  trust_class: Type.Optional(Type.String()),
  chunk_hash: Type.Optional(Type.String()),
  payload: Type.Optional(AnyObject()),
});
export type ContextPackItem = Static<typeof ContextPackItemSchema>;

const TokenLatencySchema = Type.Object({ tokens: Type.Optional(count), latency_ms: Type.Optional(count) });

export const ContextPackResponseSchema = Type.Object(
  {
    context_text: Type.String(),
    items: Type.Array(ContextPackItemSchema),
    filters: Type.Optional(AnyObject()),
    budgets: Type.Optional(TokenLatencySchema),
    usage: Type.Optional(TokenLatencySchema),
    transport: Type.Optional(StringEnum(TRANSPORTS)),
    retrieved_at: Type.Optional(Type.String({ format: 'date-time' })),
    telemetry_id: Type.Optional(Type.String()),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/context-pack.json',
    title: 'ContextPack',
  },
);
export type ContextPackResponse = Static<typeof ContextPackResponseSchema>;

/**
 * The request rgate POSTs (seed 004 RetrievalQuery). rgate writes it and never reads one, so the
 * schema is the type's declaration only; nothing compiles it.
 */
export const RetrievalQuerySchema = Type.Object({
  query: Type.String(),
  top_k: Type.Integer({ minimum: 1 }),
  filters: Type.Record(Type.String(), Type.String()),
  overlay_policy: StringEnum(['include', 'skip']),
  transport: StringEnum(TRANSPORTS),
  budgets: TokenLatencySchema,
});
export type RetrievalQuery = Static<typeof RetrievalQuerySchema>;
