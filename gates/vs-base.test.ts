import { describe, expect, it } from 'vitest';
import type { Better, PairedTest, VsBaseRuleEntry } from '../src/documents/index.js';
import { judgeVsBase, vsBaseGateLines, type VsBaseEvidence } from './vs-base.js';

const rule = (over: Partial<VsBaseRuleEntry> = {}): VsBaseRuleEntry => ({
  metric: 'ndcg_cut.10',
  max_drop: 0.02,
  significant: true,
  alpha: 0.05,
  reason: 'judged by the server',
  ...over,
});

/** The paired test of base (a) against the run (b), as the vs-base page's session holds it. */
const test = (metric: string, base: number, run: number, p: number | null, n = 40): PairedTest => ({
  metric,
  a: 'v1',
  b: 'v2',
  n,
  mean_a: base,
  mean_b: run,
  mean_delta: run - base,
  ci95: null,
  p_value: p,
  p_exact: false,
  p_holm: p,
  significant: p !== null && p < 0.05,
  wins: 0,
  ties: 0,
  losses: 0,
});

const against = (tests: PairedTest[], better: Better = 'higher'): VsBaseEvidence => ({
  base: { run_id: 'base-1', why: 'the run of the merge-base commit' },
  comparison: { tests, better: () => better },
});

describe('judgeVsBase', () => {
  it('a significant drop above max_drop FAILs, with the figures', () => {
    const g = judgeVsBase([rule()], against([test('ndcg_cut.10', 0.6, 0.5, 0.0002)]));
    expect(g.verdict).toBe('FAIL');
    expect(g.base_run_id).toBe('base-1');
    expect(g.rules[0]).toMatchObject({ base: 0.6, run: 0.5, n: 40, p: 0.0002, verdict: 'FAIL' });
    expect(g.rules[0]!.drop).toBeCloseTo(0.1, 12);
    expect(g.rules[0]!.reason).toBe(
      'ndcg_cut.10 0.5 vs base 0.6 over 40 queries (-0.1, p ~.0002): a drop of 0.1, more than the maximum drop 0.02, significant at alpha 0.05',
    );
    expect(vsBaseGateLines(g)[0]).toBe('vs-base gate FAIL against base run base-1: 1 of 1 rule failed');
  });
  it('the same drop the paired test cannot tell from noise passes, and says why', () => {
    const g = judgeVsBase([rule()], against([test('ndcg_cut.10', 0.6, 0.5, 0.3)]));
    expect(g.verdict).toBe('PASS');
    expect(g.rules[0]!.reason).toContain(
      'more than the maximum drop 0.02, but not significant at alpha 0.05',
    );
  });
  it('significant: false fails on the drop alone; the rule alpha decides significance', () => {
    expect(
      judgeVsBase([rule({ significant: false })], against([test('ndcg_cut.10', 0.6, 0.5, 0.3)])).verdict,
    ).toBe('FAIL');
    expect(judgeVsBase([rule({ alpha: 0.01 })], against([test('ndcg_cut.10', 0.6, 0.5, 0.03)])).verdict).toBe(
      'PASS',
    );
  });
  it('a drop at or under max_drop passes; a rise is no drop', () => {
    expect(judgeVsBase([rule()], against([test('ndcg_cut.10', 0.6, 0.58, 0.0001)])).verdict).toBe('PASS');
    const rise = judgeVsBase([rule()], against([test('ndcg_cut.10', 0.6, 0.7, 0.0001)]));
    expect(rise.verdict).toBe('PASS');
    expect(rise.rules[0]!.reason).toMatch(/: no drop$/);
  });
  it('a measure where lower is better drops when it rises', () => {
    const g = judgeVsBase([rule({ metric: 'err' })], against([test('err', 0.1, 0.3, 0.001)], 'lower'));
    expect(g.verdict).toBe('FAIL');
    expect(g.rules[0]!.drop).toBeCloseTo(0.2, 12);
  });
  it('no base run, no comparison, or no test of the measure is NOT_EVALUATED with why, never a PASS', () => {
    const none = judgeVsBase([rule()], {
      base: { run_id: null, why: 'run pr-1 was uploaded without its branch' },
      comparison: { unavailable: 'run pr-1 was uploaded without its branch' },
    });
    expect(none).toMatchObject({ verdict: 'NOT_EVALUATED', base_run_id: null });
    expect(none.rules[0]!.reason).toBe('no base run: run pr-1 was uploaded without its branch');
    expect(vsBaseGateLines(none)).toEqual([
      'vs-base gate NOT EVALUATED: no base run: run pr-1 was uploaded without its branch',
      'NOT EVALUATED ndcg_cut.10 vs base: no base run: run pr-1 was uploaded without its branch',
    ]);
    const unavailable = judgeVsBase([rule()], {
      base: { run_id: 'base-1', why: 'newest' },
      comparison: { unavailable: 'run pr-1 is interrupted' },
    });
    expect(unavailable.rules[0]!.reason).toBe(
      'no paired test against base run base-1: run pr-1 is interrupted',
    );
    // one rule judged and passed, one without a test: not a PASS of the gate
    const partly = judgeVsBase(
      [rule(), rule({ metric: 'map' })],
      against([test('ndcg_cut.10', 0.6, 0.6, 1)]),
    );
    expect(partly.verdict).toBe('NOT_EVALUATED');
    expect(partly.rules.map((r) => r.verdict)).toEqual(['PASS', 'NOT_EVALUATED']);
    expect(vsBaseGateLines(partly)[0]).toBe(
      'vs-base gate NOT EVALUATED against base run base-1: 1 of 2 rules could not be judged',
    );
    // a FAIL stands beside a rule that could not be judged
    expect(
      judgeVsBase([rule(), rule({ metric: 'map' })], against([test('ndcg_cut.10', 0.6, 0.4, 0.001)])).verdict,
    ).toBe('FAIL');
  });
});
