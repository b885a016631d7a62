import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../core/resolve-config.js';
import type { CorpusRecord } from '../../documents/index.js';
import { createEngine } from '../../engine/index.js';
import { normalizeResponse, normalizeText } from './index.js';

const unit = (kuId: string, extra: Record<string, unknown> = {}) => ({
  kuId,
  sourceLink: `kb/${kuId}.md`,
  text: `text of ${kuId}`,
  ...extra,
});

/** A ResolvedIntent as a DS012 system outside rgate might write it (extra fields included). */
function answer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    intentRef: 'q1',
    retrievalProfile: 'medium',
    intentGroup: 'ops',
    decomposed: { goal: 'rollback' },
    strategyUnits: [unit('strategy-ops', { level: 'intermediate' })],
    guidanceUnits: {
      planner: [],
      goalSolver: [unit('t-format', { sourceLink: 'turn:t-format', role: 'goalSolver' })],
      decomposition: [],
      validation: [unit('guide-ops', { level: 'leaf' })],
    },
    currentTurnContextUnits: [unit('t-ctx', { sourceLink: 'turn:t-ctx' })],
    sessionUnits: [],
    kbUnits: [
      unit('ops-rollback-cmd', { level: 'leaf', score: 0.4, loadedAs: 'child', splitFrom: 'ops-rollback' }),
      unit('ops-rollback-time', { level: 'leaf', score: 0.9, loadedAs: 'child', splitFrom: 'ops-rollback' }),
    ],
    retrievalTrace: {
      purpose: 'task-evidence',
      strategiesRun: ['level:intermediate', 'adjacent-levels'],
      escalated: true,
      kuLevelsUsed: ['leaf'],
      totalKUsConsidered: 40,
      overBudget: [
        {
          kuId: 'ops-rollback',
          chars: 5000,
          budget: 1200,
          resolution: 'children',
          children: ['ops-rollback-cmd', 'ops-rollback-time'],
        },
      ],
      vendorDiagnostics: { took: 'n/a' },
    },
    resolvedPayload: {
      prompt: 'How do we roll back?',
      context: [
        { title: 'a', sourceLink: 'kb/a.md', text: '12345' },
        { title: 'b', sourceLink: 'kb/b.md', text: '123' },
      ],
    },
    ...over,
  };
}

describe('resolved-intent (DS012) normalizer', () => {
  it('ranks by kbUnits order (not their scores), provenance from sourceLink, escalation as fallback', () => {
    const o = normalizeResponse('resolved-intent', answer());
    expect(o.ok).toBe(true);
    expect(o.contract).toEqual({ name: 'resolved-intent', valid: true, errors: [] });
    expect(o.ranked.map((r) => [r.id, r.source_path, r.score])).toEqual([
      ['ops-rollback-cmd', 'kb/ops-rollback-cmd.md', 2],
      ['ops-rollback-time', 'kb/ops-rollback-time.md', 1],
    ]);
    expect(o.ranked[0]?.score_breakdown).toEqual({ ku_score: 0.4 });
    expect(o.selected_id).toBe('ops-rollback-cmd');
    expect(o.source_path).toBe('kb/ops-rollback-cmd.md');
    expect(o.fallback).toEqual({
      triggered: true,
      stage: 'adjacent-levels',
      attempts: ['level:intermediate', 'adjacent-levels'],
    });
    expect(o.usage).toEqual({ files: 2, chars: 8, tokens: 2 });
    expect(o.ku?.units.map((u) => `${u.origin}:${u.id}${u.role ? `:${u.role}` : ''}`)).toEqual([
      'strategy:strategy-ops',
      'guidance:t-format:goalSolver',
      'guidance:guide-ops:validation',
      'current_turn:t-ctx',
      'kb:ops-rollback-cmd',
      'kb:ops-rollback-time',
    ]);
    expect(o.ku?.over_budget).toEqual([
      { id: 'ops-rollback', resolution: 'children', children: ['ops-rollback-cmd', 'ops-rollback-time'] },
    ]);
    expect(o.ku?.response_sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes the canonical answer: key order does not move it, any value does', () => {
    const a = normalizeResponse('resolved-intent', answer()).ku?.response_sha256;
    const reordered = Object.fromEntries(Object.entries(answer()).reverse());
    expect(normalizeResponse('resolved-intent', reordered).ku?.response_sha256).toBe(a);
    const changed = answer({ resolvedPayload: { prompt: 'How do we roll back? ', context: [] } });
    expect(normalizeResponse('resolved-intent', changed).ku?.response_sha256).not.toBe(a);
  });

  it('no KB unit is a no_match with its reason', () => {
    const o = normalizeResponse('resolved-intent', answer({ kbUnits: [] }));
    expect(o.ok).toBe(true);
    expect(o.selection_mode).toBe('no_match');
    expect(o.no_match_reason).toContain('kbUnits empty');
  });

  it('refuses a missing DS012 field; lists a guidance unit in the wrong list, a duplicate or an unlisted level', () => {
    const missing = answer();
    delete missing['guidanceUnits'];
    const m = normalizeResponse('resolved-intent', missing);
    expect(m.ok).toBe(false);
    expect(m.error?.kind).toBe('contract_invalid');
    expect(m.contract.errors).toContain('/guidanceUnits: is required');

    const wrong = answer({ kbUnits: [unit('x', { level: 'summary' }), unit('x', { level: 'leaf' })] });
    (wrong['guidanceUnits'] as Record<string, unknown[]>)['planner'] = [unit('p', { role: 'validation' })];
    const w = normalizeResponse('resolved-intent', wrong);
    // schema-valid, so measurable: the cross-field rules are listed violations (contract_validity counts them)
    expect(w).toMatchObject({ ok: true, contract: { valid: false } });
    expect(w.ranked.map((r) => r.id)).toEqual(['x', 'x']);
    expect(w.contract.errors).toEqual([
      '/retrievalTrace/kuLevelsUsed: must list "summary" (level of kbUnits/0)',
      '/guidanceUnits/planner/0/role: must be "planner" (the list it is in)',
      // every contract's rule (repeated-ids.ts)
      '/kbUnits/1/kuId: must not repeat an id ranked earlier (only its first position is scored)',
    ]);
    expect(normalizeText('resolved-intent', '{"intentRef":').error?.kind).toBe('non_json');
  });

  it("holds rgate's own engine to the contract", () => {
    const corpus: CorpusRecord[] = [
      {
        id: 's',
        source_path: 'kb/s.md',
        text: 'Deploys overview',
        kind: 'canonical',
        captured_at: '2026-01-01T00:00:00Z',
        level: 'summary',
      },
      {
        id: 'l',
        source_path: 'kb/l.md',
        text: 'Rollback command is orbitctl rollback',
        kind: 'canonical',
        captured_at: '2026-01-01T00:00:00Z',
        level: 'leaf',
        parent_id: 's',
      },
    ];
    const engine = createEngine(corpus, resolveConfig({ mode: 'ku', as_of: '2026-04-01T00:00:00Z' }));
    const o = normalizeResponse(
      'resolved-intent',
      engine.resolveIntent({ intent: 'Which command rolls back?', intentRef: 'q' }),
    );
    expect(o.contract).toEqual({ name: 'resolved-intent', valid: true, errors: [] });
    expect(o.selected_id).toBe('l');
  });
});
