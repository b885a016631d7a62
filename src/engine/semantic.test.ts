import { describe, expect, it } from 'vitest';
import { validateMemoryCliV1 } from '../contracts/responses/memory-cli-v1.js';
import { createEngine } from './engine.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { clampK } from './semantic.js';
import { cfg, rec, semanticCorpus } from './test-helpers.js';
import type { Embedder, ErrorEnvelope, RetrievalResultV1, SelectResult } from './types.js';

const corpus = semanticCorpus();

function ok(out: SelectResult | ErrorEnvelope): SelectResult {
  if ('error' in out) throw new Error(`unexpected envelope ${JSON.stringify(out)}`);
  expect(validateMemoryCliV1(out), JSON.stringify(validateMemoryCliV1.errors)).toBe(true);
  return out;
}

describe('hashed embedder', () => {
  const e = createHashedEmbedder(768);
  it('is deterministic, 768-dimensional and L2-normalised', () => {
    const a = e.embed('Fixture freeze rules');
    expect(a.length).toBe(768);
    expect(Array.from(a)).toEqual(Array.from(e.embed('Fixture freeze rules')));
    expect(Math.sqrt(a.reduce((s, x) => s + x * x, 0))).toBeCloseTo(1, 5);
    expect(e.embed('').every((x) => x === 0)).toBe(true);
  });
  it('places texts sharing words closer than unrelated ones (lexical, not semantic)', () => {
    const cos = (x: Float32Array, y: Float32Array): number =>
      x.reduce((s, v, i) => s + v * (y[i] as number), 0);
    const q = e.embed('freeze rules for fixtures');
    expect(cos(q, e.embed('Fixture freeze rules and notes'))).toBeGreaterThan(
      cos(q, e.embed('lunch menus and parking')),
    );
  });
});

/** the v1 cosine method; the engine default is hybrid_rrf (tested below) */
const COSINE = { semantic: { method: 'cosine' as const } };

describe('semantic selection v1, cosine method', () => {
  const engine = createEngine(
    corpus,
    cfg({ semantic: { method: 'cosine', confidence_min: 0.35, ambiguity_margin: 0.02 } }),
  );

  it('selects semantically when both gates pass, with K clamped to 10..15', () => {
    const out = ok(
      engine.select({ query: 'Fixture freeze rules: bump the version and write a baseline reset note.' }),
    );
    expect(out.selection_mode).toBe('semantic');
    expect(out.selected_id).toBe('freeze');
    expect(out.source_path).toBe('docs/governance/freeze-rules.md');
    // the default embedder weights query features by idf and record features by tf only (lnc.ltc),
    // so a query equal to a record is close to it but not at cosine 1
    expect(out.confidence).toBeGreaterThan(0.9);
    expect(out.confidence).toBe(out.gates.top1);
    expect(out.reason).toBe('semantic_gates_passed');
    expect(out.fallback.triggered).toBe(false);
    expect(out.candidates.length).toBe(10);
    expect(out.candidates.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ok(engine.select({ query: 'freeze', k: 100 })).candidates.length).toBe(15);
    expect(ok(engine.select({ query: 'freeze', k: 1 })).candidates.length).toBe(10);
    expect(clampK(undefined, 12)).toBe(12);
  });

  it('falls back to the exact key given in the request, then to a key mentioned in the query', () => {
    const byRequest = ok(engine.select({ query: 'zzz qqq', exact_key: 'DEC-2026-011' }));
    expect(byRequest.selection_mode).toBe('fallback_exact_key');
    expect(byRequest.selected_id).toBe('deploy');
    expect(byRequest.reason).toBe('fallback_exact_key_request');
    expect(byRequest.fallback).toMatchObject({ triggered: true, stage: 'exact_key' });
    expect(byRequest.fallback.trace.map((s) => [s.stage, s.outcome])).toEqual([
      ['semantic', 'gate_failed'],
      ['exact_key', 'selected'],
    ]);
    const mentioned = ok(engine.select({ query: 'what does FREEZE-RULES say?' }));
    expect(mentioned.selection_mode).toBe('fallback_exact_key');
    expect(mentioned.selected_id).toBe('freeze');
    expect(mentioned.reason).toBe('fallback_exact_key_mentioned');
  });

  it('then to path priority, then to a well-formed no_match', () => {
    const path = ok(engine.select({ query: 'zzz runbooks docs' }));
    expect(path.selection_mode).toBe('fallback_path_priority');
    expect(path.selected_id).toBe('oncall'); // path_priority 5 beats the docs/ records (1, 2)
    const none = ok(engine.select({ query: 'zzz qqq' }));
    expect(none.selection_mode).toBe('no_match');
    expect(none.selected_id).toBeNull();
    expect(none.source_path).toBeNull();
    expect(none.reason).toBe('no_match_no_fallback_candidate');
    expect(none.candidates.length).toBe(10);
    expect(none.fallback.trace.map((s) => s.outcome)).toEqual([
      'gate_failed',
      'no_candidate',
      'no_candidate',
    ]);
  });

  it('the ambiguity gate sends near-ties to the fallback chain', () => {
    const twins = createEngine(
      [rec('a', 'alpha beta gamma', { key: 'K-A' }), rec('b', 'alpha beta gamma', { key: 'K-B' })],
      cfg(COSINE),
    );
    const out = ok(twins.select({ query: 'alpha beta gamma', exact_key: 'K-B' }));
    expect(out.gates.confidence_passed).toBe(true);
    expect(out.gates.ambiguity_passed).toBe(false);
    expect(out.selection_mode).toBe('fallback_exact_key');
    expect(out.selected_id).toBe('b');
    const off = createEngine(
      [rec('a', 'alpha'), rec('b', 'alpha')],
      cfg({ ...COSINE, fallback: { enabled: false } }),
    );
    expect(ok(off.select({ query: 'alpha' })).reason).toBe('no_match_fallback_disabled');
  });

  it('uses snapshot vectors as given and reports a dimension mismatch as the error envelope', () => {
    const v = (i: number): number[] => Array.from({ length: 4 }, (_, j) => (j === i ? 1 : 0));
    const vec = createEngine(
      [rec('x', 'one', { embedding: v(0) }), rec('y', 'two', { embedding: v(1) })],
      cfg({ ...COSINE, embedding: { dimensions: 4 } }),
    );
    const out = ok(vec.select({ query: 'anything', query_embedding: [0, 0.9, 0.1, 0] }));
    expect(out.selected_id).toBe('y');
    const bad = vec.select({ query: 'anything', query_embedding: [1, 0] });
    expect(bad).toEqual({
      error: {
        code: 'embedding_dimension_mismatch',
        message: expect.stringMatching(/2 dimensions, expected 4/),
        action: expect.any(String),
      },
    });
    const badCorpus = createEngine([rec('x', 'one', { embedding: [1, 2, 3] })], cfg());
    expect((badCorpus.select({ query: 'one' }) as ErrorEnvelope).error.code).toBe(
      'embedding_dimension_mismatch',
    );
    const small: Embedder = { id: 'tiny', dimensions: 8, embed: () => new Float32Array(8) };
    const wrongEmbedder = createEngine([rec('x', 'one')], cfg(), { embedder: small });
    expect((wrongEmbedder.select({ query: 'one' }) as ErrorEnvelope).error.message).toMatch(
      /tiny produces 8/,
    );
  });
});

describe('semantic selection v1, hybrid_rrf method (the default)', () => {
  const engine = createEngine(corpus, cfg());

  it('is the default, and its scores are the normalised RRF of the BM25 and cosine rankings', () => {
    const query = 'holiday freeze for deploys';
    const out = ok(engine.select({ query, k: 15 }));
    expect(out.gates.method).toBe('hybrid_rrf');
    expect(out.gates.rrf_k).toBe(10);
    // both rankings from the engine's public views: BM25 search and the cosine retrieval-result view
    const lexical = engine.search(query, 100).map((h) => h.id);
    const cosine = (engine.retrievalResult({ query, k: 15 }) as RetrievalResultV1).results
      .filter((r) => r.score > 0)
      .map((r) => r.chunk_id);
    const rrf = (id: string): number =>
      [lexical, cosine].reduce(
        (s, list) => s + (list.includes(id) ? 1 / (10 + list.indexOf(id) + 1) : 0),
        0,
      ) /
      (2 / 11);
    expect(out.candidates.length).toBeGreaterThanOrEqual(2);
    for (const c of out.candidates) expect(c.score).toBeCloseTo(rrf(c.id), 12);
    for (let i = 1; i < out.candidates.length; i++)
      expect(out.candidates[i - 1]!.score).toBeGreaterThanOrEqual(out.candidates[i]!.score);
    // 'deploy' is first in both rankings: normalised score 1, both gates pass
    expect(lexical[0]).toBe('deploy');
    expect(cosine[0]).toBe('deploy');
    expect(out.selected_id).toBe('deploy');
    expect(out.selection_mode).toBe('semantic');
    expect(out.confidence).toBe(1);
    expect(out.gates.top1).toBe(1);
  });

  it('sends a query the rankings disagree on, or that only one of them sees, down the fallback chain', () => {
    const out = ok(engine.select({ query: 'zzz qqq', exact_key: 'FREEZE-RULES' }));
    expect(out.gates.confidence_passed).toBe(false);
    expect(out.selection_mode).toBe('fallback_exact_key');
    expect(out.selected_id).toBe('freeze');
    const strict = createEngine(
      corpus,
      cfg({ semantic: { hybrid_confidence_min: 1, hybrid_margin_min: 0.5 } }),
    );
    const gated = ok(strict.select({ query: 'holiday freeze for deploys' }));
    expect(gated.gates).toMatchObject({ confidence_min: 1, ambiguity_margin: 0.5, confidence_passed: true });
    expect(gated.gates.ambiguity_passed).toBe(false);
    expect(gated.fallback.triggered).toBe(true);
  });

  it('never returns a withheld record, and record order does not change the answer', () => {
    const secret = rec('secret', 'holiday freeze for deploys password', { tags: ['secret'] });
    const a = createEngine([secret, ...corpus], cfg());
    const b = createEngine([...corpus].reverse().concat(secret), cfg());
    const qa = ok(a.select({ query: 'holiday freeze for deploys password' }));
    expect(qa.candidates.map((c) => c.id)).not.toContain('secret');
    expect(qa).toEqual(ok(b.select({ query: 'holiday freeze for deploys password' })));
  });
});
