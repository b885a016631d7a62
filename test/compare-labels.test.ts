/**
 * A gate metric that moves between variants whose rankings are identical is a label effect (issue
 * 24: memory-cli classic vs hybrid, top-1 useful +0.333 with 0 top-1 flips because hybrid labels every
 * answer hybrid_rrf). Every format says so; a real ranking change is never called one.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCompare } from '../history/compare.js';
import { labelEffects } from '../reports/history/compare-labels.js';
import {
  breakName,
  renderSessionHtml,
  renderSessionMarkdown,
  renderSessionTerminal,
} from '../reports/history/compare.js';
import type { SelectionMode } from '../src/documents/index.js';
import { outcome, rate, report, rule } from './history-helpers.js';

const ids = Array.from({ length: 18 }, (_, i) => `q${String(i).padStart(2, '0')}`);

function session(hybridSelected: (i: number) => string) {
  const mk = (runId: string, mode: (i: number) => SelectionMode, selected: (i: number) => string) => {
    const queries = ids.map((id, i) =>
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
      metrics: [rate('top1_useful_rate', semantic, ids.length)],
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

describe('label effects in rgate compare', () => {
  it('names a gate metric that moved with 0 top-1 flips and every ranking measure tied', () => {
    const s = session((i) => `doc-${i}`);
    expect(s.flips[0]!.queries).toEqual([]);
    const effects = labelEffects(s);
    expect(effects.map((e) => [e.metric, e.a, e.b])).toEqual([['top1_useful_rate', s.reference, 'v2']]);
    // the report's semantic-win modes here are semantic only: hybrid_rrf answers are not wins
    expect(effects[0]!.text).toContain('top1_useful_rate moved -0.6667 (v1 -> v2)');
    expect(effects[0]!.text).toContain(
      '0 top-1 flips, every other measure tied on every query (top1_useful_any_mode, replay_determinism, ndcg_cut.5)',
    );
    const t = renderSessionTerminal(s);
    expect(t).toContain('Label effects (a gate metric moved, the rankings did not)');
    for (const line of t.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    // per-variant values and selection-mode rates, in every format
    expect(s.variants.map((v) => v.selection_modes)).toEqual([
      { semantic: 12, fallback_path_priority: 6 },
      { hybrid_rrf: 18 },
    ]);
    expect(t).toContain('modes: semantic 12/18 (66.7%), fallback_path_priority 6/18 (33.3%)');
    expect(t).toContain('modes: hybrid_rrf 18/18 (100.0%)');
    expect(t).toContain('top1_useful_rate 0.6667 (12/18)');
    const md = renderSessionMarkdown(s);
    expect(md).toContain('### Label effects');
    expect(md).toContain(
      '| v2 | mode=hybrid | PASS | top1\\_useful\\_rate 1 (18/18) | hybrid\\_rrf 18/18 (100.0%) |',
    );
    const html = renderSessionHtml(s);
    expect(html).toContain('<h2 id="label-effects">');
    expect(html).toContain('hybrid_rrf 18/18 (100.0%)');
  });

  it('is silent when the rankings changed', () => {
    const s = session((i) => (i === 4 ? 'other-doc' : `doc-${i}`));
    expect(s.flips[0]!.queries).toHaveLength(1);
    expect(labelEffects(s)).toEqual([]);
    expect(renderSessionTerminal(s)).not.toContain('Label effects');
  });

  it('wraps a long variant label to the width instead of cutting it', () => {
    const s = session((i) => `doc-${i}`);
    s.variants[1]!.label = 'weighting_mode=evidence_outcome_bias retrieval_profile=strict_contract k=25';
    const t = renderSessionTerminal(s);
    for (const line of t.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(t.replace(/\n +/g, ' ')).toContain(s.variants[1]!.label);
  });
});

describe('breakName', () => {
  it('breaks a long name at its separators, and hard only inside a longer part', () => {
    expect(breakName('selection_mode_reporting', 17)).toBe('selection_mode_\nreporting');
    expect(breakName('ndcg_cut.5', 17)).toBe('ndcg_cut.5');
    expect(breakName('abcdefghij', 4)).toBe('abcd\nefgh\nij');
  });
});
