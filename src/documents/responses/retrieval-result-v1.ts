/**
 * retrieval-result-v1 (seed 003): top-K chunks by cosine similarity, 768-dimension query embeddings,
 * K clamped to 10..15 (so at most 15 results), rank 1..k in order, `results: []` with `k_returned: 0`
 * for "nothing relevant". `score` is a similarity (higher is better), and an answer may say which
(`score_semantics`, optional; seed 003 asks that the meaning be stated): only `cosine_similarity`
is accepted, since rgate ranks by `score` as a similarity and a distance would be ranked upside down.
`score_semantics` was added to the contract after rgate's reference engine had emitted it
undeclared; an answer without it is unchanged, one stating another meaning is refused.
 */
import { Type, type Static } from '@sinclair/typebox';
import { OrNull, StringEnum } from '../keywords.js';

/** What `score` means, when an answer says (seed 003 "score: either similarity or distance; specify clearly"). */
export const RETRIEVAL_SCORE_SEMANTICS = ['cosine_similarity'] as const;

export const RetrievalResultV1ItemSchema = Type.Object({
  chunk_id: Type.String({ minLength: 1 }),
  document_id: Type.String({ minLength: 1 }),
  text_content: Type.String(),
  page: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0 }),
  section: OrNull(Type.String()),
  coordinates: Type.Unsafe<unknown>({ type: ['object', 'array', 'null'] }),
  rank: Type.Integer({ minimum: 1, maximum: 15 }),
  score: Type.Number(),
});
export type RetrievalResultV1Item = Static<typeof RetrievalResultV1ItemSchema>;

export const RetrievalResultV1ResponseSchema = Type.Object(
  {
    schema_version: Type.String({ pattern: '^1(\\.|$)' }),
    query_embedding_dimensions: Type.Unsafe<768>({ const: 768 }),
    k_requested: Type.Integer({ minimum: 1 }),
    k_returned: Type.Integer({ minimum: 0, maximum: 15 }),
    query_hash: Type.Optional(Type.String()),
    score_semantics: Type.Optional(StringEnum(RETRIEVAL_SCORE_SEMANTICS)),
    results: Type.Array(RetrievalResultV1ItemSchema, { maxItems: 15 }),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/retrieval-result-v1.json',
    title: 'retrieval result v1 (top-K chunks)',
  },
);
export type RetrievalResultV1Response = Static<typeof RetrievalResultV1ResponseSchema>;
