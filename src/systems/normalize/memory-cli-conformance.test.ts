import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeResponse } from './index.js';

/**
 * The real AthenaMind `memory-cli retrieve` outputs (fixtures/memory-cli/responses, PROVENANCE.md
 * there): each is accepted by memory-cli-v1 as it is, ranked in its printed order, scored by
 * fused_score, else confidence, else lexical_score.
 */
const DIR = resolve(import.meta.dirname, '../../../fixtures/memory-cli/responses');
const recorded = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(resolve(DIR, `retrieve-${name}.json`), 'utf8')) as Record<string, unknown>;

describe('memory-cli-v1 accepts the real CLI outputs as they are', () => {
  it('classic query: fallback_path_priority, token-overlap confidences as scores, fallback_used', () => {
    const o = normalizeResponse('memory-cli-v1', recorded('classic'));
    expect(o.contract).toEqual({ name: 'memory-cli-v1', valid: true, errors: [] });
    expect(o).toMatchObject({
      ok: true,
      selection_mode: 'fallback_path_priority',
      selected_id: 'cli-commands-4a43d031',
      source_path: 'instructions/kbx/cli-commands-4a43d031.md',
      // the CLI's own words for why it fell back, as it printed them
      fallback: {
        triggered: true,
        stage: 'path_priority',
        reason: 'semantic confidence gate failed; deterministic path-priority fallback used',
      },
      usage: { files: 1, chars: 0, tokens: 0 },
    });
    expect(o.ranked.map((r) => r.id)).toEqual([
      'cli-commands-4a43d031',
      'process-operator-daily-workflow-0c06c7a2',
      'concepts-readme-b7d267b9',
      'concepts-governance-1c616379',
      'concepts-memory-lifecycle-74ce7d08',
    ]);
    expect(o.ranked[2]).toEqual({
      id: 'concepts-readme-b7d267b9',
      source_path: 'instructions/kbx/concepts-readme-b7d267b9.md',
      score: 0.5714285714285714,
      score_breakdown: { confidence: 0.5714285714285714, lexical_score: 0.5714285714285714 },
    });
  });

  it('hybrid query: hybrid_rrf is not a fallback, fused_score is the score', () => {
    const o = normalizeResponse('memory-cli-v1', recorded('hybrid'));
    expect(o.ok).toBe(true);
    expect(o.selection_mode).toBe('hybrid_rrf');
    expect(o.fallback).toEqual({ triggered: false });
    expect(o.ranked.map((r) => r.score)).toEqual([
      0.01639344262295082, 0.016129032258064516, 0.015873015873015872, 0.015625, 0.015384615384615385,
    ]);
    expect(o.ranked[0]!.score_breakdown).toEqual({
      confidence: 0.01639344262295082,
      lexical_score: 0.7142857142857143,
      fused_score: 0.01639344262295082,
    });
  });

  it('query matching nothing: path-priority fallback at confidence 0, lexical_score absent means 0', () => {
    const o = normalizeResponse('memory-cli-v1', recorded('nomatch'));
    expect(o.ok).toBe(true);
    expect(o).toMatchObject({ selection_mode: 'fallback_path_priority', selected_id: 'agents-37dd6836' });
    expect(o.fallback.triggered).toBe(true);
    expect(o.ranked.every((r) => r.score === 0)).toBe(true);
    expect(o.ranked[0]!.score_breakdown).toEqual({ confidence: 0, lexical_score: 0 });
  });

  it('entry-id query: answered semantic (the CLI did not use fallback_exact_key)', () => {
    const o = normalizeResponse('memory-cli-v1', recorded('exact-key'));
    expect(o.ok).toBe(true);
    expect(o).toMatchObject({ selection_mode: 'semantic', selected_id: 'cli-commands-4a43d031' });
    expect(o.fallback).toEqual({ triggered: false });
    expect(o.ranked[0]!.score).toBe(1);
  });
});
