import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../src/documents/index.js';
import { withDetectable } from './detectable.js';

const rule = (over: Partial<RuleResult>): RuleResult => ({
  metric: 'top1_useful_rate',
  op: 'min',
  threshold: 0.8,
  observed: 0.5,
  status: 'fail',
  reason: '',
  ...over,
});

/** C(n, k) p^k q^(n-k) summed term by term: the exact binomial the rule's effect must reach. */
function lowerTail(c: number, n: number, p: number): number {
  let s = 0;
  let term = (1 - p) ** n;
  for (let k = 0; k <= c; k++) {
    s += term;
    term *= ((n - k) / (k + 1)) * (p / (1 - p));
  }
  return s;
}

describe('withDetectable', () => {
  it('gives a rate rule the exact binomial drop at which a 5% test reaches 80% power', () => {
    const r = withDetectable(
      rule({ numerator: 39, denominator: 86, observed: 39 / 86 }),
      undefined,
      undefined,
    );
    const d = r.detectable!;
    expect(d).toMatchObject({
      direction: 'drop',
      n: 86,
      method: 'binomial_exact',
      basis: 'observed',
      alpha: 0.05,
      power: 0.8,
    });
    // the critical count at p0 = 39/86, written out: the largest c with P(X <= c) <= 0.05
    let c = 0;
    while (lowerTail(c + 1, 86, 39 / 86) <= 0.05) c++;
    expect(lowerTail(c, 86, 39 / 86 - d.effect)).toBeCloseTo(0.8, 6);
    // a max rule looks for a rise: an error rate of 0/630 sees a rise to 1 - 0.2^(1/630)
    const rise = withDetectable(
      rule({ metric: 'error_rate', op: 'max', threshold: 0.01, numerator: 0, denominator: 630, observed: 0 }),
      undefined,
      undefined,
    ).detectable!;
    expect(rise.direction).toBe('rise');
    expect(rise.effect).toBeCloseTo(1 - 0.2 ** (1 / 630), 8);
  });

  it('reads a mean rule from its per-query values, and a baseline rule from per-query differences', () => {
    const values: Record<string, number> = {};
    const base: Record<string, number> = {};
    for (let i = 0; i < 40; i++) {
      values[`q${String(i).padStart(2, '0')}`] = (i % 5) / 4;
      base[`q${String(i).padStart(2, '0')}`] = ((i + 1) % 5) / 4;
    }
    const m = withDetectable(
      rule({ metric: 'ndcg_cut.5', n: 40, observed: 0.5 }),
      { 'ndcg_cut.5': values },
      undefined,
    ).detectable!;
    // sd of 0, .25, .5, .75, 1 repeated 8 times: sqrt(0.125 * 40 / 39); t_{0.95,39} + t_{0.8,39} = 1.6849 + 0.8509
    const sd = Math.sqrt(0.125 * (40 / 39));
    expect(m).toMatchObject({ method: 't_quantiles', basis: 'observed', n: 40 });
    expect(m.effect).toBeCloseTo(((1.684875 + 0.850971) * sd) / Math.sqrt(40), 4);
    const paired = withDetectable(
      rule({
        metric: 'ndcg_cut.5',
        n: 40,
        observed: -0.01,
        threshold: 0,
        baseline: { value: 0.5, source: 'b', comparison: 'delta' },
      }),
      { 'ndcg_cut.5': values },
      { 'ndcg_cut.5': base },
    ).detectable!;
    expect(paired).toMatchObject({ basis: 'paired', n: 40, method: 't_quantiles' });
    // an uplift rule compares relative changes: its detectable effect is the paired one over the baseline's value
    const uplift = withDetectable(
      rule({
        metric: 'ndcg_cut.5',
        n: 40,
        observed: 0,
        threshold: 0,
        baseline: { value: 0.5, source: 'b', comparison: 'uplift' },
      }),
      { 'ndcg_cut.5': values },
      { 'ndcg_cut.5': base },
    ).detectable!;
    expect(uplift.effect).toBeCloseTo(paired.effect / 0.5, 12);
    // without the baseline's per-query values, no paired figure is made up
    expect(
      withDetectable(
        rule({ metric: 'ndcg_cut.5', n: 40, baseline: { value: 0.5, source: 'b', comparison: 'delta' } }),
        { 'ndcg_cut.5': values },
        undefined,
      ).detectable,
    ).toBeUndefined();
  });

  it('resamples a mean over fewer than 30 queries, and states nothing where nothing was counted', () => {
    const few = Object.fromEntries([0, 0, 0, 1, 0.5, 0, 0, 1, 0, 0.2].map((v, i) => [`q${i}`, v]));
    const r = withDetectable(
      rule({ metric: 'recip_rank', n: 10, observed: 0.27 }),
      { recip_rank: few },
      undefined,
    );
    expect(r.detectable).toMatchObject({ method: 'resampled', n: 10 });
    expect(withDetectable(rule({ observed: null }), undefined, undefined).detectable).toBeUndefined();
    expect(
      withDetectable(rule({ insufficient: 'too_few', numerator: 1, denominator: 2 }), undefined, undefined)
        .detectable,
    ).toBeUndefined();
    expect(
      withDetectable(rule({ metric: 'latency_ms', quantile: 'p95', op: 'max', n: 10 }), undefined, undefined)
        .detectable,
    ).toBeUndefined();
  });
});
