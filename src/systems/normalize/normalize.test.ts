import { describe, expect, it } from 'vitest';
import { CONTRACT_NAMES, contractsReadAs, normalizeResponse, normalizeText } from './index.js';

const sb = (c: number) => ({
  lexical_score: c,
  evidence_score: 0.5,
  outcome_score: 0.5,
  freshness_score: 0.5,
  combined_score: c,
});

describe('response normalizers', () => {
  it('knows the five contracts', () => {
    expect(CONTRACT_NAMES).toEqual([
      'rgate',
      'context-load-v0',
      'memory-cli-v1',
      'retrieval-result-v1',
      'context-pack',
      'resolved-intent',
    ]);
  });

  it('rgate: ranked answer, defaults selected_id/source_path to the top item and derives usage', () => {
    const o = normalizeResponse('rgate', {
      ranked: [
        { id: 'a', source_path: 'docs/a.md', score: 2, chars: 10 },
        { id: 'b', source_path: 'docs/b.md', score: 1, chars: 7 },
      ],
    });
    expect(o.ok).toBe(true);
    expect(o.selected_id).toBe('a');
    expect(o.source_path).toBe('docs/a.md');
    expect(o.usage).toEqual({ files: 2, chars: 17, tokens: 5 });
    expect(o.contract).toEqual({ name: 'rgate', valid: true, errors: [] });
  });

  it('rgate: TREC-style results are accepted, a typo is contract-invalid with the ajv path', () => {
    expect(normalizeResponse('rgate', { results: [{ id: 'd1', score: 3 }] }).ranked).toEqual([
      { id: 'd1', source_path: '', score: 3 },
    ]);
    const bad = normalizeResponse('rgate', { ranked: [], selectedId: 'x' });
    expect(bad.ok).toBe(false);
    expect(bad.error?.kind).toBe('contract_invalid');
    expect(bad.contract.errors).toEqual(['/selectedId: is not a known field']);
  });

  it('context-load-v0: entries shape, no fallback at the restricted stage', () => {
    const o = normalizeResponse('context-load-v0', {
      ranking_contract_version: 'v0',
      retrieval_profile: 'medium',
      weighting_mode: 'uniform',
      selected_count: 1,
      fallback_level: 'restricted',
      fallback_attempts: [{ stage: 'restricted', outcome: 'selected' }],
      entries: [{ record_id: 'r1', source_path: 'a.md', text: 'hello', score_breakdown: sb(0.7) }],
    });
    expect(o.ok).toBe(true);
    expect(o.ranked[0]).toMatchObject({ id: 'r1', source_path: 'a.md', score: 0.7, chars: 5 });
    expect(o.fallback).toEqual({ triggered: false, stage: 'restricted', attempts: ['restricted'] });
    expect(o.usage).toEqual({ files: 1, chars: 5, tokens: 2 });
  });

  it('context-load-v0: real-world files[] variant with a relaxed fallback', () => {
    const o = normalizeResponse('context-load-v0', {
      ranking_contract_version: 'v0',
      retrieval_profile: 'small',
      weighting_mode: 'evidence_outcome_bias',
      selected_count: 1,
      fallback_level: 'relaxed',
      fallback_attempts: ['restricted', 'relaxed'],
      files: [{ path: 'specs/x.md', selected_by: 'task_match', content: 'abc', score_breakdown: sb(0.4) }],
    });
    expect(o.ok).toBe(true);
    expect(o.selected_id).toBe('specs/x.md');
    expect(o.fallback).toEqual({ triggered: true, stage: 'relaxed', attempts: ['restricted', 'relaxed'] });
  });

  it("context-load-v0: a fallback's stated reason is kept with it; a reason without a fallback is not one", () => {
    const answer = (fallback_level: string) =>
      normalizeResponse('context-load-v0', {
        ranking_contract_version: 'v0',
        retrieval_profile: 'small',
        weighting_mode: 'uniform',
        selected_count: 1,
        fallback_level,
        reason: 'restricted scope matched no task entry',
        files: [{ path: 'specs/x.md', selected_by: 'task_match', content: 'abc', score_breakdown: sb(0.4) }],
      });
    expect(answer('relaxed').fallback).toEqual({
      triggered: true,
      stage: 'relaxed',
      reason: 'restricted scope matched no task entry',
    });
    expect(answer('restricted').fallback).toEqual({ triggered: false, stage: 'restricted' });
  });

  it('context-load-v0: missing ranking metadata and a wrong selected_count are contract-invalid', () => {
    const o = normalizeResponse('context-load-v0', {
      ranking_contract_version: 'v0',
      retrieval_profile: 'medium',
      weighting_mode: 'uniform',
      selected_count: 1,
      entries: [{ record_id: 'r1', score_breakdown: { lexical_score: 1 } }],
    });
    expect(o.ok).toBe(false);
    expect(o.contract.errors).toContain('/entries/0/score_breakdown/combined_score: is required');
    const c = normalizeResponse('context-load-v0', {
      ranking_contract_version: 'v0',
      retrieval_profile: 'medium',
      weighting_mode: 'uniform',
      selected_count: 2,
      entries: [{ record_id: 'r1', score_breakdown: sb(0.1) }],
    });
    expect(c.contract.errors).toEqual(['/selected_count: must equal the number of entries (1)']);
  });

  it('a ranking that names an id twice: measured, each later repeat a violation at its JSON path', () => {
    const repeat = (path: string) =>
      `${path}: must not repeat an id ranked earlier (only its first position is scored)`;
    const r = normalizeResponse('rgate', {
      results: [
        { id: 'd1', score: 3 },
        { id: 'd6', score: 2 },
        { id: 'd6', score: 1 },
      ],
    });
    expect(r).toMatchObject({ ok: true, contract: { valid: false, errors: [repeat('/results/2/id')] } });
    expect(r.ranked.map((x) => x.id)).toEqual(['d1', 'd6', 'd6']);
    const m = normalizeResponse('memory-cli-v1', {
      selection_mode: 'semantic',
      selected_id: 'k1',
      source_path: 'mem/k1.md',
      confidence: 0.9,
      reason: 'ok',
      candidates: [
        { id: 'k1', source_path: 'mem/k1.md', confidence: 0.9 },
        { id: 'k1', source_path: 'mem/k1.md', confidence: 0.5 },
      ],
    });
    expect(m.contract.errors).toEqual([repeat('/candidates/1/id')]);
    // ranked by stated rank: the repeat is named where it stands in the answer, not in the ranking
    const c = normalizeResponse(
      'context-load-v0',
      {
        ranking_contract_version: 'v0',
        retrieval_profile: 'medium',
        weighting_mode: 'uniform',
        selected_count: 3,
        entries: [
          { record_id: 'r1', rank: 3, score_breakdown: sb(0.1) },
          { record_id: 'r2', rank: 2, score_breakdown: sb(0.2) },
          { record_id: 'r2', rank: 1, score_breakdown: sb(0.3) },
        ],
      },
      { rankedEntries: 'rank' },
    );
    expect(c.ranked.map((x) => x.id)).toEqual(['r2', 'r2', 'r1']);
    expect(c.contract.errors).toEqual([repeat('/entries/1')]);
  });

  it('memory-cli-v1: fallback modes and no_match', () => {
    const f = normalizeResponse('memory-cli-v1', {
      selection_mode: 'fallback_exact_key',
      selected_id: 'k1',
      source_path: 'mem/k1.md',
      confidence: 0.2,
      reason: 'confidence gate failed',
      candidates: [{ id: 'k1', source_path: 'mem/k1.md', score: 0.2 }],
    });
    expect(f).toMatchObject({ ok: true, selection_mode: 'fallback_exact_key', selected_id: 'k1' });
    // the answer's reason is why it fell back: kept beside the fallback, in its words
    expect(f.fallback).toEqual({ triggered: true, stage: 'exact_key', reason: 'confidence gate failed' });
    const n = normalizeResponse('memory-cli-v1', {
      selection_mode: 'no_match',
      selected_id: null,
      source_path: null,
      confidence: 0,
      reason: 'no candidate',
      candidates: [],
    });
    expect(n).toMatchObject({ ok: true, selection_mode: 'no_match', no_match_reason: 'no candidate' });
    expect(n.fallback).toEqual({ triggered: true, stage: 'no_match', reason: 'no candidate' });
    expect(n.selected_id).toBeUndefined();
    const bad = normalizeResponse('memory-cli-v1', {
      selection_mode: 'semantic',
      selected_id: null,
      source_path: 'x',
      confidence: 1,
      reason: '',
      candidates: [],
    });
    // breaks the letter (a semantic answer must name its pick) but is measurable: measured, listed
    expect(bad).toMatchObject({ ok: true, selection_mode: 'semantic', contract: { valid: false } });
    expect(bad.selected_id).toBeUndefined();
    expect(bad.contract.errors).toContain('/selected_id: must be string');
    // no candidates list: nothing to rank, so nothing to measure
    const unmeasurable = normalizeResponse('memory-cli-v1', { selection_mode: 'semantic', selected_id: 'a' });
    expect(unmeasurable).toMatchObject({ ok: false, error: { kind: 'contract_invalid' } });
    expect(unmeasurable.contract.errors).toContain('/candidates: is required');
  });

  it('memory-cli-v1: a candidate needs a score field, a stated rank must be its position (violations, measured)', () => {
    const base = {
      selection_mode: 'semantic',
      selected_id: 'a',
      source_path: 'a.md',
      confidence: 1,
      reason: 'r',
    };
    const none = normalizeResponse('memory-cli-v1', { ...base, candidates: [{ id: 'a', reason: 'x' }] });
    expect(none).toMatchObject({ ok: true, ranked: [{ id: 'a', score: 0 }], contract: { valid: false } });
    expect(none.contract.errors).toEqual([
      '/candidates/0: needs one of fused_score, confidence, lexical_score, score to rank by',
    ]);
    const ranked = normalizeResponse('memory-cli-v1', {
      ...base,
      candidates: [
        { id: 'a', confidence: 1, rank: 2 },
        { id: 'b', confidence: 0.5 },
      ],
    });
    expect(ranked.contract.errors).toEqual([
      "/candidates/0/rank: must equal the candidate's position (1); order is rank",
    ]);
    const mode = normalizeResponse('memory-cli-v1', {
      ...base,
      candidates: [{ id: 'a', confidence: 1, selection_mode: 'vector' }],
    });
    expect(mode.contract.errors).toEqual([
      '/candidates/0/selection_mode: must be one of "classic", "semantic", "hybrid_rrf"',
    ]);
  });

  it('retrieval-result-v1: 768 dims, rank 1..k, k_returned consistent', () => {
    const item = (rank: number) => ({
      chunk_id: `c${rank}`,
      document_id: 'doc1',
      text_content: 'abcd',
      page: null,
      section: null,
      coordinates: null,
      rank,
      score: 1 / rank,
    });
    const ok = normalizeResponse('retrieval-result-v1', {
      schema_version: '1.0.0',
      query_embedding_dimensions: 768,
      k_requested: 10,
      k_returned: 2,
      results: [item(1), item(2)],
    });
    expect(ok).toMatchObject({ ok: true, selected_id: 'c1', source_path: 'doc1' });
    expect(ok.usage).toEqual({ files: 1, chars: 8, tokens: 2 });
    const bad = normalizeResponse('retrieval-result-v1', {
      schema_version: '1.0.0',
      query_embedding_dimensions: 3072,
      k_requested: 10,
      k_returned: 2,
      results: [item(2), item(1)],
    });
    expect(bad.contract.errors).toContain('/query_embedding_dimensions: must be equal to constant');
    const order = normalizeResponse('retrieval-result-v1', {
      schema_version: '1.0.0',
      query_embedding_dimensions: 768,
      k_requested: 10,
      k_returned: 2,
      results: [item(2), item(1)],
    });
    expect(order.contract.errors).toEqual([
      '/results/0/rank: must be 1 (rank 1..k in order)',
      '/results/1/rank: must be 2 (rank 1..k in order)',
    ]);
    const empty = normalizeResponse('retrieval-result-v1', {
      schema_version: '1.0.0',
      query_embedding_dimensions: 768,
      k_requested: 10,
      k_returned: 0,
      results: [],
    });
    expect(empty).toMatchObject({ ok: true, selection_mode: 'no_match' });
  });

  it('retrieval-result-v1: a stated score_semantics must be the similarity rgate ranks by', () => {
    const answer = (score_semantics: string) =>
      normalizeResponse('retrieval-result-v1', {
        schema_version: '1.0.0',
        query_embedding_dimensions: 768,
        k_requested: 10,
        k_returned: 0,
        score_semantics,
        results: [],
      });
    expect(answer('cosine_similarity')).toMatchObject({ ok: true, contract: { valid: true } });
    const distance = answer('cosine_distance');
    expect(distance.ok).toBe(false);
    expect(distance.error?.message).toMatch(/score_semantics: must be one of "cosine_similarity"/);
  });

  it('context-pack: pack and error envelope', () => {
    const p = normalizeResponse('context-pack', {
      context_text: '### Retrieved Context\n- x',
      items: [
        {
          score: 0.82,
          source: 'services/api/routes.py',
          offset_start: 10,
          offset_end: 30,
          trust_class: 'canonical',
        },
        { score: 0.77, source: 'specs/spec.md', payload: { record_id: 'spec-1' } },
      ],
      usage: { tokens: 640, latency_ms: 420 },
      transport: 'direct',
      retrieved_at: '2026-02-20T05:00:00Z',
    });
    expect(p).toMatchObject({ ok: true, selected_id: 'services/api/routes.py' });
    expect(p.ranked[1]?.id).toBe('spec-1');
    expect(p.usage).toEqual({ files: 2, chars: 25, tokens: 640 });
    const e = normalizeResponse('context-pack', {
      error: { code: 'embedding_dimension_mismatch', message: 'dim 768 vs 3072', action: 'resync' },
    });
    expect(e).toMatchObject({ ok: false, error: { kind: 'embedding_dimension_mismatch' } });
    expect(e.contract.valid).toBe(true);
  });

  it('bad JSON and unknown contracts are data, not exceptions', () => {
    expect(normalizeText('rgate', 'garbage{').error?.kind).toBe('non_json');
    expect(normalizeResponse('nope', {}).error?.kind).toBe('unknown_contract');
  });
});

describe('an answer the configured contract cannot measure', () => {
  it('names the other contracts that can (so a run of such answers can say which to set)', () => {
    const n = normalizeResponse('context-pack', { ranked: [{ id: 'a', score: 1 }] });
    expect(n.error?.kind).toBe('contract_invalid');
    expect(n.error?.message).toBe(
      'response breaks context-pack and cannot be measured: /context_text: is required; /items: is required; the answer reads as rgate',
    );
    expect(contractsReadAs(n.error!.message)).toEqual(['rgate']);
  });

  it('names none when no contract can', () => {
    const n = normalizeResponse('rgate', { hits: [] });
    expect(n.error?.message).not.toContain('reads as');
    expect(contractsReadAs(n.error!.message)).toEqual([]);
  });
});
