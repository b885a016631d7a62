/** Hostile documents for the comparison and closeout renderer tests (shared with the browser test). */
import type { CloseoutDoc, CompareSession, SelectionMode } from '../src/documents/index.js';
import { analyzeCompare } from '../history/compare.js';
import { artifacts, outcome, rate, report, rule } from './history-helpers.js';

export const EVIL = '</script><script>alert(1)</script> @here [x](http://evil) \u001b[2J';

/** A two-variant session whose query texts and ids are hostile. */
export function hostileSession(): CompareSession {
  const ids = Array.from({ length: 40 }, (_, i) => `q${i}`);
  const mk = (runId: string, good: (i: number) => boolean) =>
    report({
      runId,
      rules: [rule('top1_useful_rate', 'min', 0.8)],
      metrics: [rate('top1_useful_rate', ids.filter((_, i) => good(i)).length, ids.length)],
      queries: ids.map((id, i) => ({
        ...outcome(id, {
          top1: good(i) ? 'useful' : 'not_useful',
          selected: good(i) ? `ok-${id}` : `<b>${id}</b>`,
          measures: { 'ndcg_cut.5': good(i) ? 0.9 : 0.1 },
        }),
        text: `${EVIL} ${id}`,
      })),
    });
  return analyzeCompare({
    suite: 'ctx',
    kind: 'variants',
    variants: [
      {
        spec: { label: 'weighting_mode=uniform', overrides: { weighting_mode: 'uniform' } },
        report: mk('a', (i) => i % 2 === 0),
      },
      {
        spec: { label: `weighting_mode=evidence_outcome_bias ${EVIL}`, overrides: {} },
        report: mk('b', () => true),
      },
    ],
    settings: { seed: 3, alpha: 0.05, resamples: 500, permutations: 2000 },
    environment: { session_id: 'cmp-test', created_at: '2026-11-22T00:00:00Z' },
  });
}

const labelIds = Array.from({ length: 18 }, (_, i) => `q${String(i).padStart(2, '0')}`);

/**
 * memory-cli's classic vs hybrid on 18 queries as issue 24 recorded it: a third of classic's answers
 * fall back, hybrid labels every answer hybrid_rrf; `hybridSelected` picks hybrid's top-1 per query
 * (the classic one: a pure label effect).
 */
export function labelEffectSession(hybridSelected: (i: number) => string): CompareSession {
  const mk = (runId: string, mode: (i: number) => SelectionMode, selected: (i: number) => string) => {
    const queries = labelIds.map((id, i) =>
      outcome(id, {
        top1: 'useful',
        selected: selected(i),
        mode: mode(i),
        measures: { 'ndcg_cut.5': i % 3 ? 0.5 : 1 },
      }),
    );
    const semantic = queries.filter((q) => q.actual.selection_mode !== 'fallback_path_priority').length;
    return report({
      runId,
      rules: [rule('top1_useful_rate', 'min', 0.5)],
      metrics: [rate('top1_useful_rate', semantic, labelIds.length)],
      queries,
    });
  };
  return analyzeCompare({
    suite: 'memory-cli',
    kind: 'variants',
    variants: [
      {
        spec: { label: 'mode=classic', overrides: {} },
        // classic: a third of the answers come from the path-priority fallback
        report: mk(
          'classic',
          (i) => (i % 3 === 0 ? 'fallback_path_priority' : 'semantic'),
          (i) => `doc-${i}`,
        ),
      },
      {
        spec: { label: 'mode=hybrid', overrides: {} },
        report: mk('hybrid', () => 'hybrid_rrf', hybridSelected),
      },
    ],
    settings: { seed: 3, alpha: 0.05, resamples: 500, permutations: 2000 },
    environment: { session_id: 'cmp-labels', created_at: '2026-11-26T00:00:00Z' },
  });
}

export function hostileCloseout(): CloseoutDoc {
  const r = report({
    runId: 'cand',
    queries: [{ ...outcome('q<1>', { top1: 'not_useful' }), text: EVIL }],
    metrics: [rate('budget_compliance', 50, 50)],
  });
  return {
    schema: 'rgate-closeout/1',
    suite: 'ctx',
    ready: true,
    gate: {
      gate_id: 'context-load-gate-c-v0',
      version: '0.1.0',
      description: 'd',
      verdict: 'PASS',
      rules: [
        {
          metric: 'recall.10',
          op: 'min',
          threshold: 0.8,
          observed: 0.9,
          numerator: 9,
          denominator: 10,
          status: 'pass',
          reason: 'ok',
        },
        {
          metric: 'ndcg_cut.5',
          op: 'min',
          threshold: 0.1,
          observed: 0.2,
          baseline: { value: 0.5, source: 'history baseline b', comparison: 'uplift' },
          status: 'pass',
          reason: 'ok',
        },
      ],
      reasons: ['all rules met'],
      checklist: [],
    },
    freeze: {
      verified: true,
      artifact_id: 'ctx-fixture',
      version: 'v2',
      frozen_on: '2026-11-10',
      seal: 'sha256:' + 'e'.repeat(64),
      files: [
        {
          part: 'corpus',
          file: 'corpus.jsonl',
          id: artifacts('v2').corpus_id,
          sha256: artifacts('v2').corpus_sha256,
        },
      ],
      rules: ['rule one'],
      history: [
        { version: 'v1', frozen_on: '2026-11-01', corpus_id: 'c', query_set_id: 'q', config_id: 'k' },
        {
          version: 'v2',
          frozen_on: '2026-11-10',
          corpus_id: 'c',
          query_set_id: 'q',
          config_id: 'k',
          reset_note: EVIL,
        },
      ],
    },
    run: {
      run_id: 'cand',
      started_at: '2026-11-20T00:00:00Z',
      system: r.system,
      settings: r.settings,
      artifacts: artifacts('v2'),
      overrides: ['weighting_mode=evidence_outcome_bias', `note=${EVIL}`],
    },
    baseline: {
      run_id: 'base',
      started_at: null,
      note: EVIL,
      version: 'v1',
      artifacts: artifacts('v1'),
      version_changed: true,
      reset_note: `v2: ${EVIL}`,
    },
    determinism: {
      replays: 30,
      seed: 1,
      identical: true,
      rollups: ['sha256:r'],
      divergent: [],
      replay_determinism: null,
      fallback_determinism: null,
    },
    budget: { budget_compliance: rate('budget_compliance', 50, 50), rule: null },
    failing_queries: r.failing_queries,
    residuals: [{ id: 'R1', risk: EVIL, owner: '@mara', due: '2026-12-01' }],
    sign_off: [{ role: 'Retrieval owner' }],
  };
}
