/**
 * `rgate retrieve --json`: the reference engine's answer to one query, in the shape of the mode that
 * answered it: a bm25 ranking, a context-load v0 answer, a semantic selection (memory-cli-v1) or its
 * top-K retrieval-result-v1 view, a ku ResolvedIntent, or the engine's error envelope (semantic mode,
 * exit 2). Each shape is the document the engine itself returns; only the bm25 ranking is declared
 * here, because the engine's bm25 search returns bare hits and the command adds the rest.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const } from './keywords.js';
import { ResolvedIntentSchema } from './resolved-intent.js';
import { RetrievalConfigSchema } from './retrieval-config.js';
import { ContextLoadResultSchema } from './responses/engine-context-load.js';
import { ErrorEnvelopeSchema } from './responses/engine-error.js';
import { RetrievalResultV1Schema } from './responses/engine-retrieval-result.js';
import { SelectResultSchema } from './responses/engine-select.js';

/** One ranked document: its 1-based rank, id, the corpus record's source_path ('' when it has none) and BM25 score. */
export const Bm25RankedSchema = Closed({
  rank: Type.Integer({ minimum: 1 }),
  id: Type.String(),
  source_path: Type.String(),
  score: Type.Number(),
});
export type Bm25Ranked = Static<typeof Bm25RankedSchema>;

/** The bm25 mode's answer: the ranking and what produced it. */
export const Bm25OutputSchema = Closed({
  mode: Const('bm25'),
  /** the fixture set's name */
  fixture: Type.String(),
  /** the task text as given */
  query: Type.String(),
  /** the ranking depth asked for (the ranking may be shorter: only documents sharing a term) */
  k: Type.Integer({ minimum: 0 }),
  bm25: RetrievalConfigSchema.properties.bm25,
  /** best first */
  ranked: Type.Array(Bm25RankedSchema),
});
export type Bm25Output = Static<typeof Bm25OutputSchema>;

export const RetrieveOutputSchema = Type.Union(
  [
    Bm25OutputSchema,
    ContextLoadResultSchema,
    SelectResultSchema,
    RetrievalResultV1Schema,
    ResolvedIntentSchema,
    ErrorEnvelopeSchema,
  ],
  { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'rgate retrieve --json' },
);
export type RetrieveOutput = Static<typeof RetrieveOutputSchema>;
