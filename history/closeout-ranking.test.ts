import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../src/documents/index.js';
import { mean, outcome, rate, report, rule } from '../test/history-helpers.js';
import { rankingEvidence } from './closeout-ranking.js';

const uplift: RuleResult = {
  ...rule('ndcg_cut.5', 'min', 0.1, 'fail'),
  baseline: { value: 0.5, source: 'history baseline base', comparison: 'uplift' },
};
const recallMin = rule('recall.10', 'min', 0.8, 'fail');

function run(ndcg: Record<string, number>, recall: Record<string, number> = {}) {
  const ids = [...new Set([...Object.keys(ndcg), ...Object.keys(recall)])];
  return report({
    runId: 'cand',
    queries: ids.map((id) => ({
      ...outcome(id, {
        measures: {
          ...(ndcg[id] !== undefined ? { 'ndcg_cut.5': ndcg[id] } : {}),
          ...(recall[id] !== undefined ? { 'recall.10': recall[id] } : {}),
        },
      }),
      text: `text of ${id}`,
    })),
    metrics: [mean('ndcg_cut.5', 0.4, ids.length), mean('recall.10', 0.5, ids.length)],
  });
}

describe('rankingEvidence against the baseline', () => {
  it('counts drops, ties and improvements over the queries both runs measured', () => {
    const cand = run({ q1: 0.2, q2: 0.5, q3: 0.9, q4: 0.3, q5: 0.1 });
    // q5 is not in the baseline, q9 not in the run: both left out of n and counted as unpaired
    const base = run({ q1: 0.6, q2: 0.5 + 1e-12, q3: 0.4, q4: 0.7, q9: 1 });
    const [e] = rankingEvidence([uplift], cand, { run_id: 'base', report: base });
    expect(e).toMatchObject({
      metric: 'ndcg_cut.5',
      rule: 'ndcg_cut.5 vs baseline',
      kind: 'vs_baseline',
      baseline_run_id: 'base',
      n: 4,
      improved: 1,
      tied: 1,
      dropped: 2,
      unpaired: 2,
    });
    expect(e!.queries.map((q) => q.query_id)).toEqual(['q1', 'q4']);
    expect(e!.queries[0]).toEqual({
      query_id: 'q1',
      text: 'text of q1',
      value: 0.2,
      baseline: 0.6,
      delta: 0.2 - 0.6,
    });
  });

  it('gives the paired sign-flip p of the change: exact over 5 queries, 1 when nothing moved', () => {
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const base = run(Object.fromEntries(ids.map((id, i) => [id, 0.3 + i / 10])));
    // every query 0.125 lower: only the two all-same-sign assignments are as extreme, 2/32
    const down = run(Object.fromEntries(ids.map((id, i) => [id, 0.175 + i / 10])));
    const [e] = rankingEvidence([uplift], down, { run_id: 'base', report: base });
    expect(e).toMatchObject({ dropped: 5, p_value: 2 / 32, p_exact: true });
    const [same] = rankingEvidence([uplift], base, { run_id: 'base', report: base });
    expect(same).toMatchObject({ tied: 5, p_value: 1, p_exact: true });
  });

  it('orders equal drops by query id (code units) and lists at most 10', () => {
    const ids = ['q10', 'Q2', 'q02', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'z'];
    const cand = run(Object.fromEntries(ids.map((id) => [id, id === 'z' ? 0 : 0.25])));
    const base = run(Object.fromEntries(ids.map((id) => [id, 0.75])));
    const [e] = rankingEvidence([uplift], cand, { run_id: 'base', report: base });
    expect(e!.dropped).toBe(12);
    expect(e!.queries.map((q) => q.query_id)).toEqual(['z', 'Q2', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    // the same reports in another order give the same entry
    const shuffled = { ...cand, queries: [...cand.queries].reverse() };
    expect(rankingEvidence([uplift], shuffled, { run_id: 'base', report: base })).toEqual([e]);
  });

  it('says so in one line when the baseline report cannot be read', () => {
    const [e] = rankingEvidence([uplift], run({ q1: 0.2 }), { run_id: 'old', report: undefined });
    expect(e).toMatchObject({ kind: 'vs_baseline', n: 0, baseline_run_id: 'old', queries: [] });
    expect(e!.unavailable).toMatch(/^the stored report of baseline run old cannot be read/);
  });
});

describe('rankingEvidence against a threshold', () => {
  it('counts the queries below the minimum and lists the lowest, ties by query id', () => {
    const cand = run({}, { q3: 0.5, q1: 0.5, q2: 0.8, q4: 1, q5: 0.2, q6: 0.8 - 1e-12 });
    const [e] = rankingEvidence([recallMin], cand, undefined);
    expect(e).toMatchObject({ rule: 'recall.10', kind: 'threshold', threshold: 0.8, n: 6, below: 3 });
    expect(e!.queries.map((q) => [q.query_id, q.value])).toEqual([
      ['q5', 0.2],
      ['q1', 0.5],
      ['q3', 0.5],
    ]);
    expect(e!.queries[0]).not.toHaveProperty('delta');
  });
});

describe('rankingEvidence: which rules', () => {
  it('only failing rules on a mean the queries carry, in the rules order', () => {
    const cand = run({ q1: 0.2 }, { q1: 0.5 });
    cand.metrics.push(rate('budget_compliance', 1, 2));
    const rules: RuleResult[] = [
      rule('budget_compliance', 'min', 1, 'fail'),
      rule('recall.10', 'min', 0.8, 'pass'),
      rule('P.5', 'min', 0.5, 'fail'), // not measured at all
      { ...rule('recall.10', 'min', 0, 'fail'), baseline: { ...uplift.baseline!, comparison: 'not_below' } },
      recallMin,
    ];
    const base = run({ q1: 0.4 }, { q1: 0.9 });
    const got = rankingEvidence(rules, cand, { run_id: 'base', report: base });
    expect(got.map((e) => [e.rule, e.kind])).toEqual([
      ['recall.10 vs baseline', 'vs_baseline'],
      ['recall.10', 'threshold'],
    ]);
    expect(rankingEvidence([], cand, undefined)).toEqual([]);
  });
});
