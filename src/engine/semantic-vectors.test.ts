import { describe, expect, it } from 'vitest';
import type { RetrievalConfig } from '../documents/index.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { buildIndexedCorpus } from './indexed-corpus.js';
import { SemanticVectors } from './semantic-vectors.js';
import { cfg, rec } from './test-helpers.js';
import type { ErrorEnvelope } from './types.js';

const HTTP: RetrievalConfig['embedder'] = {
  type: 'http',
  api: 'ollama',
  url: 'http://127.0.0.1:9',
  model: 'nomic-embed-text',
};

function vectors(records: ReturnType<typeof rec>[], config: RetrievalConfig): SemanticVectors {
  return new SemanticVectors(buildIndexedCorpus(records, config), config, createHashedEmbedder(4));
}

const code = (v: object): string | undefined => (v as ErrorEnvelope).error?.code;

describe('the vectors of semantic selection', () => {
  const small = cfg({ embedding: { dimensions: 4 } });

  it('ranks pinned vectors by cosine, withheld records left out, and labels where vectors come from', () => {
    const v = vectors(
      [
        rec('a', 'x', { embedding: [1, 0, 0, 0] }),
        rec('b', 'x', { embedding: [0.9, 0.1, 0, 0], tags: ['secret'] }),
        rec('c', 'x', { embedding: [0, 1, 0, 0] }),
      ],
      small,
    );
    const top = v.topK({ query: 'q', query_embedding: [1, 0.2, 0, 0] }, 10);
    if ('error' in top) throw new Error(top.error.message);
    expect(top.hits.map((h) => h.doc)).toEqual([0, 2]);
    expect(v.embedderLabel()).toBe(`snapshot-vectors+${createHashedEmbedder(4).id}`);
    expect(vectors([rec('a', 'x')], small).embedderLabel()).toBe(createHashedEmbedder(4).id);
  });

  it('never calls an HTTP embedder at run time: unpinned records and queries are an envelope', () => {
    const http = cfg({ embedding: { dimensions: 4 }, embedder: HTTP });
    const unpinned = vectors([rec('a', 'x')], http);
    expect(code(unpinned.matrixAndQuery({ query: 'q', query_embedding: [1, 0, 0, 0] }))).toBe(
      'embedding_not_pinned',
    );
    const pinned = vectors([rec('a', 'x', { embedding: [1, 0, 0, 0] })], http);
    expect(code(pinned.matrixAndQuery({ query: 'q' }))).toBe('embedding_not_pinned');
    expect('error' in pinned.matrixAndQuery({ query: 'q', query_embedding: [1, 0, 0, 0] })).toBe(false);
    expect(pinned.embedderLabel()).toBe('snapshot-vectors:ollama:nomic-embed-text');
  });

  it('answers a vector of the wrong length with embedding_dimension_mismatch, and keeps a bad matrix', () => {
    const v = vectors([rec('a', 'x', { embedding: [1, 0, 0] })], small);
    expect(code(v.matrixAndQuery({ query: 'q' }))).toBe('embedding_dimension_mismatch');
    expect(v.matrixAndQuery({ query: 'q' })).toBe(v.matrixAndQuery({ query: 'other' }));
    const good = vectors([rec('a', 'x', { embedding: [1, 0, 0, 0] })], small);
    expect(code(good.matrixAndQuery({ query: 'q', query_embedding: [1] }))).toBe(
      'embedding_dimension_mismatch',
    );
  });
});
