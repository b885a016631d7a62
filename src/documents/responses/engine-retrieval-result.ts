/**
 * The reference engine's retrieval-result-v1 view (src/engine/retrieval-result.ts, `rgate retrieve
 * --view retrieval-result-v1`): the contract (retrieval-result-v1.ts) with what the engine always
 * states made required (`query_hash`, `score_semantics`) and its version fixed. Closed: a field the
 * engine adds is declared here, and in the contract when other systems may send it too.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const } from '../keywords.js';
import { RetrievalResultV1ItemSchema, RetrievalResultV1ResponseSchema } from './retrieval-result-v1.js';

const contract = RetrievalResultV1ResponseSchema.properties;

export const RetrievalResultItemSchema = Closed(RetrievalResultV1ItemSchema.properties);
export type RetrievalResultItem = Static<typeof RetrievalResultItemSchema>;

export const RetrievalResultV1Schema = Closed({
  schema_version: Const('1.0.0'),
  query_embedding_dimensions: contract.query_embedding_dimensions,
  k_requested: contract.k_requested,
  k_returned: contract.k_returned,
  ...Type.Required(Type.Pick(RetrievalResultV1ResponseSchema, ['query_hash', 'score_semantics'])).properties,
  results: Type.Array(RetrievalResultItemSchema, { maxItems: 15 }),
});
export type RetrievalResultV1 = Static<typeof RetrievalResultV1Schema>;
