import { describe, expect, it } from 'vitest';
import { analyzeCompare } from '../history/compare.js';
import { applyHolm, nameWinners, nBasis, pairedTest, perQueryValues } from '../history/compare-stats.js';
import { parseSweep, sweepVariants } from '../history/compare-variants.js';
import { createPrng } from '../src/core/prng.js';
import { studentTwoSidedP } from '../src/stats/index.js';
import { outcome, rate, report, rule } from './history-helpers.js';

const S = { seed: 11, alpha: 0.05, resamples: 1000, permutations: 4000 };
const ids = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, '0')}`);

/** A realistic per-query vector: ndcg-like values in [0, 1] from a seeded stream. */
function vector(seed: number): number[] {
  const p = createPrng(seed);
  return ids.map(() => Math.round(p.next() * 1000) / 1000);
}

describe('paired tests on planted per-query vectors', () => {
  it('finds nothing between identical vectors (A/A)', () => {
    const x = vector(1);
    const t = pairedTest('ndcg_cut.5', 'v1', 'v2', x, x, S);
    expect(t).toMatchObject({ n: 60, mean_delta: 0, ci95: [0, 0], p_value: 1, wins: 0, ties: 60, losses: 0 });
    expect(applyHolm([t], 0.05)[0]!.significant).toBe(false);
  });

  it('finds nothing when the differences are symmetric noise', () => {
    const x = vector(2);
    const noise = createPrng(3);
    const y = x.map((v) => v + (noise.next() < 0.5 ? -0.01 : 0.01));
    const t = applyHolm([pairedTest('ndcg_cut.5', 'v1', 'v2', x, y, S)], 0.05)[0]!;
    expect(t.p_value!).toBeGreaterThan(0.05);
    expect(t.significant).toBe(false);
    expect(t.ci95![0]).toBeLessThan(0);
    expect(t.ci95![1]).toBeGreaterThan(0);
  });

  it('finds a variant planted to win on a known subset of 15 queries, with its interval above 0', () => {
    const x = vector(4);
    const y = x.map((v, i) => (i % 4 === 0 ? Math.min(1, v + 0.3) : v));
    const t = applyHolm([pairedTest('ndcg_cut.5', 'v1', 'v2', x, y, S)], 0.05)[0]!;
    expect(t.wins).toBeGreaterThanOrEqual(10);
    expect(t.losses).toBe(0);
    expect(t.p_value!).toBeLessThan(0.001);
    expect(t.ci95![0]).toBeGreaterThan(0);
    expect(t.significant).toBe(true);
  });

  it("with --test t: Student's paired t-test on the same differences, beside the same bootstrap interval", () => {
    const x = vector(7);
    const y = x.map((v, i) => (i % 3 === 0 ? v + 0.05 : v - 0.01));
    const T = { ...S, test: 't' as const };
    const t = pairedTest('ndcg_cut.5', 'v1', 'v2', x, y, T);
    const d = x.map((v, i) => y[i]! - v);
    const m = d.reduce((a, b) => a + b, 0) / d.length;
    const sd = Math.sqrt(d.reduce((a, b) => a + (b - m) ** 2, 0) / (d.length - 1));
    expect(t.t!).toBeCloseTo(m / (sd / Math.sqrt(60)), 10);
    expect(t.df).toBe(59);
    expect(t.p_value).toBe(studentTwoSidedP(t.t!, 59));
    expect(t.p_exact).toBeUndefined();
    // the interval does not depend on the test
    expect(t.ci95).toEqual(pairedTest('ndcg_cut.5', 'v1', 'v2', x, y, S).ci95);
    // all tied: p 1 (scipy says nan); a single differing query among ties still has a variance
    expect(pairedTest('m', 'a', 'b', x, x, T)).toMatchObject({ p_value: 1, t: 0 });
    expect(pairedTest('m', 'a', 'b', [0.5], [0.7], T)).toMatchObject({ p_value: null, n: 1 });
    expect(pairedTest('m', 'a', 'b', [0.1, 0.2], [0.2, 0.3], T)).toMatchObject({
      p_value: 0,
      t: null,
      df: 1,
    });
  });

  it('is reproducible from the seed', () => {
    const x = vector(5);
    const y = vector(6);
    expect(pairedTest('m', 'a', 'b', x, y, S)).toEqual(pairedTest('m', 'a', 'b', x, y, S));
  });
});

describe('the floor of an estimated p-value under Holm', () => {
  // differences on no grid 1/K: the p-value is estimated, and no better than 1/(permutations + 1)
  const x = ids.map((_, i) => (i % 10) / 10);
  const y = x.map((v, i) => v + 0.2 + (i % 7) * Math.SQRT2 * 1e-4);
  const settings = { ...S, permutations: 99 };
  const family = (m: number) =>
    applyHolm(
      Array.from({ length: m }, (_, k) => pairedTest(`m${k}`, 'v1', 'v2', x, y, settings)),
      0.05,
    );

  it('says when no estimated test can pass Holm, and how many permutations would let one', () => {
    const tests = family(10); // 10 x 1/100 = 0.1 > 0.05
    expect(tests.every((t) => t.p_exact === false && t.p_value === 0.01 && !t.significant)).toBe(true);
    const [w] = nameWinners(['m0'], ['v1', 'v2'], tests, () => 'higher', settings);
    expect(w!.winner).toBeNull();
    expect(w!.reason).toContain(
      'with 99 permutations a Monte Carlo p is at least 1/100, which Holm over 10 tests raises to .1000 > alpha 0.05: no estimated test can be significant; rerun with --permutations 200 or more',
    );
  });

  it('says nothing when the floor is below alpha', () => {
    const tests = family(4); // 4 x 1/100 = 0.04
    const [w] = nameWinners(['m0'], ['v1', 'v2'], tests, () => 'higher', settings);
    expect(w!.winner).toBe('v2');
    expect(w!.reason).toBe('v2 beats every other variant (Holm-corrected p <= alpha)');
  });
});

describe('analyzeCompare over reports', () => {
  const rules = [rule('top1_useful_rate', 'min', 0.8), rule('ndcg_cut.5', 'min', 0.5)];
  const base = vector(7);
  const reportWith = (runId: string, ndcg: number[], usefulFrom: (i: number) => boolean) =>
    report({
      runId,
      rules,
      queries: ids.map((id, i) =>
        outcome(id, {
          top1: usefulFrom(i) ? 'useful' : 'not_useful',
          selected: usefulFrom(i) ? `good-${id}` : `bad-${id}`,
          measures: { 'ndcg_cut.5': ndcg[i]! },
        }),
      ),
    });

  it('two identical configs: no significant difference, no winner, no flips', () => {
    const r = reportWith('a', base, (i) => i % 3 !== 0);
    const s = analyzeCompare({
      suite: 'ctx',
      kind: 'variants',
      variants: [
        { spec: { label: 'weighting_mode=uniform', overrides: { weighting_mode: 'uniform' } }, report: r },
        {
          spec: { label: 'weighting_mode=uniform k=10', overrides: { weighting_mode: 'uniform', k: 10 } },
          report: { ...r },
        },
      ],
      settings: S,
      environment: { session_id: 's', created_at: 't' },
    });
    expect(s.tests.every((t) => !t.significant)).toBe(true);
    expect(s.winners.every((w) => w.winner === null)).toBe(true);
    expect(s.flips[0]!.queries).toEqual([]);
    expect(s.metrics.map((m) => m.id)).toEqual([
      'top1_useful_rate',
      'top1_useful_any_mode',
      'replay_determinism',
      'ndcg_cut.5',
    ]);
  });

  it('a variant planted to win on a known subset is named the winner; its flips are exactly that subset', () => {
    const subset = new Set(ids.filter((_, i) => i % 3 === 0));
    const a = reportWith('a', base, (i) => i % 3 !== 0);
    const b = reportWith(
      'b',
      base.map((v, i) => (i % 3 === 0 ? Math.min(1, v + 0.4) : v)),
      () => true,
    );
    const s = analyzeCompare({
      suite: 'ctx',
      kind: 'variants',
      variants: [
        { spec: { label: 'weighting_mode=uniform', overrides: { weighting_mode: 'uniform' } }, report: a },
        {
          spec: {
            label: 'weighting_mode=evidence_outcome_bias',
            overrides: { weighting_mode: 'evidence_outcome_bias' },
          },
          report: b,
        },
      ],
      settings: S,
      environment: { session_id: 's', created_at: 't' },
    });
    const top1 = s.tests.find((t) => t.metric === 'top1_useful_rate')!;
    expect(top1).toMatchObject({ wins: 20, ties: 40, losses: 0, significant: true });
    expect(s.winners.find((w) => w.metric === 'top1_useful_rate')!.winner).toBe('v2');
    expect(s.winners.find((w) => w.metric === 'ndcg_cut.5')!.winner).toBe('v2');
    // determinism did not differ: no winner there
    expect(s.winners.find((w) => w.metric === 'replay_determinism')!.winner).toBeNull();
    expect(new Set(s.flips[0]!.queries.map((q) => q.query_id))).toEqual(subset);
    expect(s.flips[0]!.queries.every((q) => q.direction === 'better')).toBe(true);
    // Holm: adjusted p is never below the raw p
    for (const t of s.tests) if (t.p_value !== null) expect(t.p_holm!).toBeGreaterThanOrEqual(t.p_value);
  });

  it('a sweep names no winner where neighbouring grid points are indistinguishable', () => {
    const sweep = parseSweep('bm25.k1=0.6:1.2:0.2');
    expect(sweep.values).toEqual([0.6, 0.8, 1, 1.2]);
    const specs = sweepVariants(sweep);
    expect(specs[1]!.overrides).toEqual({ bm25: { k1: 0.8 } });
    // 1.0 and 1.2 both win big on the same subset; 1.2 is ahead of 1.0 by symmetric-looking noise
    // (+0.03 on half the subset, -0.02 on the other half): best, but not distinguishable from 1.0
    const half = base.map((v) => v * 0.5);
    const lifted = half.map((v, i) => (i % 3 === 0 ? v + 0.4 : v));
    const noisy = lifted.map((v, i) => (i % 3 === 0 ? v + (i % 2 === 0 ? 0.03 : -0.02) : v));
    const reports = [
      reportWith('p0', half, () => true),
      reportWith('p1', half, () => true),
      reportWith('p2', lifted, () => true),
      reportWith('p3', noisy, () => true),
    ];
    const s = analyzeCompare({
      suite: 'ctx',
      kind: 'sweep',
      sweep,
      variants: specs.map((spec, i) => ({ spec, report: reports[i]! })),
      settings: S,
      environment: { session_id: 's', created_at: 't' },
    });
    const w = s.winners.find((x) => x.metric === 'ndcg_cut.5')!;
    // a ranking measure moves with the ranking: never a label effect, though no top-1 flipped
    expect(s.label_effects).toEqual([]);
    expect(w.best).toBe('v4');
    expect(w.winner).toBeNull();
    expect(w.reason).toMatch(/not distinguishable from v3/);
    expect(s.tests.filter((t) => t.metric === 'ndcg_cut.5')).toHaveLength(6);
    // ... while the lift itself is found against the bottom of the grid
    expect(s.tests.find((t) => t.metric === 'ndcg_cut.5' && t.a === 'v1' && t.b === 'v3')!.significant).toBe(
      true,
    );
  });
});

describe('measures that do not apply to a variant', () => {
  const mk = (runId: string, selectionStep: boolean) => {
    const r = report({
      runId,
      rules: [rule('ndcg_cut.5', 'min', 0.1)],
      metrics: [rate('top1_useful_rate', 30, 60), rate('top1_useful_any_mode', 40, 60)],
      queries: ids.map((id, i) =>
        outcome(id, { top1: i % 2 ? 'useful' : 'not_useful', measures: { 'ndcg_cut.5': i % 2 ? 0.8 : 0.2 } }),
      ),
    });
    return { ...r, judging: { ...r.judging!, selection_step: selectionStep } };
  };
  const session = (steps: [boolean, boolean]) =>
    analyzeCompare({
      suite: 'ctx',
      kind: 'variants',
      variants: steps.map((step, i) => ({
        spec: { label: `v${i}`, overrides: {} },
        report: mk(`r${i}`, step),
      })),
      settings: S,
      environment: { session_id: 's', created_at: 't' },
    });

  it('a measure without a selection step in one variant only is left out, naming that variant', () => {
    const s = session([true, false]);
    expect(s.not_applicable).toEqual([{ id: 'top1_useful_rate', why: 'no selection step in v2' }]);
    expect(s.tests.map((t) => t.metric)).toEqual([
      'top1_useful_any_mode',
      'replay_determinism',
      'ndcg_cut.5',
    ]);
  });

  it('a measure a gate rule reads is tested even without a selection step', () => {
    const s = session([false, false]);
    expect(s.not_applicable).toEqual([{ id: 'top1_useful_rate', why: 'no selection step' }]);
    const ruled = analyzeCompare({
      suite: 'ctx',
      kind: 'variants',
      variants: [0, 1].map((i) => {
        const r = mk(`r${i}`, false);
        return {
          spec: { label: `v${i}`, overrides: {} },
          report: { ...r, gate: { ...r.gate, rules: [rule('top1_useful_rate', 'min', 0.1)] } },
        };
      }),
      settings: S,
      environment: { session_id: 's', created_at: 't' },
    });
    expect(ruled.not_applicable).toEqual([]);
    expect(ruled.tests.map((t) => t.metric)).toContain('top1_useful_rate');
  });
});

describe('perQueryValues', () => {
  it('counts top-1 useful over judged benchmark queries and probes by their expectation', () => {
    const v = perQueryValues(
      [
        outcome('a', { top1: 'useful', mode: 'fallback_exact_key' }),
        outcome('b', { top1: 'unjudged' }),
        outcome('p', { kind: 'probe', expectation_met: false, deterministic: false }),
      ],
      ['semantic'],
    );
    expect(v).toEqual({
      top1_useful_rate: { a: 0 },
      top1_useful_any_mode: { a: 1 },
      fallback_expectation_met: { p: 0 },
      replay_determinism: { a: 1, b: 1, p: 0 },
    });
  });

  it('with per-query judgments recorded, an unjudged top-1 of a judged query counts 0, as the gate counts it', () => {
    const v = perQueryValues(
      [
        { ...outcome('a', { top1: 'unjudged' }), judged: true },
        { ...outcome('b', { top1: 'error' }), judged: false },
        { ...outcome('c', { top1: 'useful', mode: 'hybrid_rrf' }), judged: true },
      ],
      ['semantic', 'hybrid_rrf'],
    );
    expect(v['top1_useful_rate']).toEqual({ a: 0, c: 1 });
    expect(v['top1_useful_any_mode']).toEqual({ a: 0, c: 1 });
  });

  it('states n against the gate denominator, or why it differs', () => {
    expect(nBasis(18, [18, 18], [])).toBe('n=18 (gate denominator 18)');
    expect(nBasis(14, [18, 18], ['q2', 'q7'])).toBe(
      'n=14 (gate denominator 18): 2 queries have no value for this measure in one variant: q2, q7; ' +
        '2 counted queries have no value in either variant (reports written before per-query judgments were recorded)',
    );
    expect(nBasis(3, [4, 3], ['q9'])).toBe(
      'n=3 (gate denominators 4 and 3): 1 query has no value for this measure in one variant: q9',
    );
    expect(nBasis(5, [null, null], [])).toBe('n=5 (no gate denominator for this measure)');
  });

  it('refuses a sweep that is not key=start:stop:step', () => {
    expect(() => parseSweep('k1=1:0:0.1')).toThrow(/stop must not be below start/);
    expect(() => parseSweep('k1=0:1')).toThrow(/three numbers/);
    expect(() => parseSweep('k1=0:100:1')).toThrow(/at most 25/);
  });
});

describe('pairedTest: the smallest delta its queries could detect', () => {
  it('is two-sided at the session alpha from the sd of the per-query differences', () => {
    // differences 0.1 and -0.1 alternating over 40 queries plus 0.05: sd = 0.1 * sqrt(40 / 39)
    const x = Array.from({ length: 40 }, () => 0.5);
    const y = x.map((v, i) => v + 0.05 + (i % 2 ? 0.1 : -0.1));
    const t = pairedTest('ndcg_cut.5', 'v1', 'v2', x, y, S);
    expect(t.detectable).toMatchObject({
      direction: 'either',
      basis: 'paired',
      method: 't_quantiles',
      n: 40,
    });
    // t_{0.975,39} = 2.022691, t_{0.8,39} = 0.850971 (t tables)
    expect(t.detectable!.effect).toBeCloseTo(
      ((2.022691 + 0.850971) * 0.1 * Math.sqrt(40 / 39)) / Math.sqrt(40),
      5,
    );
    // every query tied: no spread, nothing to state
    expect(pairedTest('ndcg_cut.5', 'v1', 'v2', x, x, S).detectable).toBeUndefined();
  });
});
