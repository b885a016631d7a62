import { describe, expect, it } from 'vitest';
import { validateRetrievalResultV1 } from '../contracts/responses/retrieval-result-v1.js';
import { createEngine } from './engine.js';
import { cfg, semanticCorpus } from './test-helpers.js';
import type { ErrorEnvelope, RetrievalResultV1 } from './types.js';

describe('retrieval-result-v1 view', () => {
  const engine = createEngine(semanticCorpus(), cfg({ semantic: { method: 'cosine' } }));

  it('gives the retrieval-result-v1 view with ranks 1..k and cosine scores', () => {
    const out = engine.retrievalResult({ query: 'deploy windows freeze', k: 12 }) as RetrievalResultV1;
    expect(validateRetrievalResultV1(out), JSON.stringify(validateRetrievalResultV1.errors)).toBe(true);
    expect(out.query_embedding_dimensions).toBe(768);
    expect(out.k_requested).toBe(12);
    expect(out.k_returned).toBe(12);
    expect(out.score_semantics).toBe('cosine_similarity');
    expect(out.results.map((r) => r.rank)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(out.results[0]!.chunk_id).toBe('deploy');
    for (let i = 1; i < out.results.length; i++) {
      const a = out.results[i - 1]!;
      const b = out.results[i]!;
      expect(a.score > b.score || (a.score === b.score && a.chunk_id < b.chunk_id)).toBe(true);
    }
    const empty = createEngine([], cfg()).retrievalResult({ query: 'x' }) as RetrievalResultV1;
    expect(empty.k_returned).toBe(0);
    expect(empty.results).toEqual([]);
    const dims = createEngine([], cfg({ embedding: { dimensions: 32 } })).retrievalResult({ query: 'x' });
    expect((dims as ErrorEnvelope).error.code).toBe('embedding_dimension_mismatch');
  });

  it('is the cosine ranking whatever the selection method, and never lists a withheld record', () => {
    const query = 'deploy windows freeze';
    const hybrid = createEngine(semanticCorpus(), cfg()).retrievalResult({ query, k: 12 });
    expect(hybrid).toEqual(engine.retrievalResult({ query, k: 12 }));
    const secret = { ...semanticCorpus()[1]!, id: 'secret', tags: ['secret'] };
    const withSecret = createEngine([secret, ...semanticCorpus()], cfg());
    const out = withSecret.retrievalResult({ query, k: 15 }) as RetrievalResultV1;
    expect(out.results.map((r) => r.chunk_id)).not.toContain('secret');
    expect((withSecret.retrievalResult({ query: 'x', k: 3 }) as RetrievalResultV1).k_requested).toBe(10);
    const err = createEngine([], cfg({ embedding: { dimensions: 32 } })).retrievalResult({ query: 'x' });
    expect((err as ErrorEnvelope).error.action).toMatch(/768/);
  });
});
