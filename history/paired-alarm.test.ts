import { describe, expect, it } from 'vitest';
import { mean, outcome, report, rule } from '../test/history-helpers.js';
import { buildHistory, type RunWithMetrics } from './trends.js';
import { pairedAlarm, pairedAlarmTests } from './paired-alarm.js';

/** A run whose per-query ndcg_cut.10 are `vals` (q01, q02, ...), with a wide interval on the mean. */
function run(id: string, vals: readonly number[]) {
  const m = vals.reduce((a, b) => a + b, 0) / vals.length;
  return report({
    runId: id,
    queries: vals.map((v, i) =>
      outcome(`q${String(i + 1).padStart(2, '0')}`, { measures: { 'ndcg_cut.10': v } }),
    ),
    metrics: [mean('ndcg_cut.10', m, vals.length, [m - 0.3, m + 0.3])],
    rules: [rule('ndcg_cut.10', 'min', 0.1)],
  });
}

function rows(...reports: ReturnType<typeof run>[]): RunWithMetrics[] {
  return reports
    .map((r, i) => ({
      row: {
        run_id: r.environment.run_id,
        suite: 'ctx',
        started_at: `2026-11-0${i + 1}T00:00:00Z`,
        finished_at: `2026-11-0${i + 1}T00:00:00Z`,
        status: 'complete' as const,
        artifacts: r.artifacts,
        settings: r.settings,
        gate_id: r.gate.gate_id,
        verdict: r.gate.verdict,
        observation_count: r.queries.length,
      },
      metrics: r.metrics,
    }))
    .reverse();
}

const base = Array.from({ length: 20 }, (_, i) => 0.3 + (i % 5) * 0.1);
const lower = base.map((v) => v - 0.05);

describe('the paired alarm', () => {
  it('alarms on a consistent drop that stays inside the interval', () => {
    const a = run('r1', base);
    const b = run('r2', lower);
    const h = buildHistory('ctx', rows(a, b), {
      gateRules: [{ metric: 'ndcg_cut.10', op: 'min' }],
      reports: { compared: a, newest: b },
    });
    // 20 queries all worse by 0.05: exact p = 2/2^20
    expect(h.paired!.tests[0]).toMatchObject({ n: 20, losses: 20, p_exact: true, significant: true });
    expect(h.paired!.tests[0]!.p_value).toBeCloseTo(2 / 2 ** 20, 15);
    expect(h.alarms).toEqual([
      'ndcg_cut.10 fell to 0.45 in r2 from 0.5 in r1, paired over 20 queries (worse on 20, better on 0, tied on 0): sign-flip p=<.0001, Holm p=<.0001 over 1 gate metric',
    ]);
  });

  it('stays silent on a rise, and on reports that are not the compared runs', () => {
    const a = run('r1', base);
    const b = run(
      'r2',
      base.map((v) => v + 0.05),
    );
    const up = buildHistory('ctx', rows(a, b), {
      gateRules: [{ metric: 'ndcg_cut.10', op: 'min' }],
      reports: { compared: a, newest: b },
    });
    expect(up.paired!.tests[0]!.significant).toBe(true);
    expect(up.alarms).toEqual([]);
    const c = run('r2', lower);
    const stale = buildHistory('ctx', rows(a, c), {
      gateRules: [{ metric: 'ndcg_cut.10', op: 'min' }],
      reports: { compared: run('elsewhere', base), newest: c },
    });
    expect(stale.paired).toBeUndefined();
    expect(stale.alarms).toEqual([]);
  });

  it('tests every gate metric whatever --metric shows, so Holm (and the alarm) does not change with it', () => {
    const two = (id: string, nd: number[], p5: number[]) => {
      const r = run(id, nd);
      r.queries.forEach((q, i) => (q.measures = { ...q.measures, 'P.5': p5[i]! }));
      r.metrics.push(mean('P.5', 0.5, nd.length, [0, 1]));
      return r;
    };
    // nDCG drops on 6 of 20 queries (exact p = 2/64 = .03125), P.5 on 5 (p = .0625): Holm over the
    // two gives nDCG .0625, no alarm; over nDCG alone it would be .03125, an alarm
    const a = two('r1', base, base);
    const b = two(
      'r2',
      base.map((v, i) => (i < 6 ? v - 0.05 : v)),
      base.map((v, i) => (i < 5 ? v - 0.2 : v)),
    );
    const opts = {
      gateRules: [
        { metric: 'ndcg_cut.10', op: 'min' as const },
        { metric: 'P.5', op: 'min' as const },
      ],
      reports: { compared: a, newest: b },
    };
    const all = buildHistory('ctx', rows(a, b), opts);
    const one = buildHistory('ctx', rows(a, b), { ...opts, metric: 'ndcg_cut.10' });
    expect(all.paired!.tests.map((t) => [t.metric, t.p_value, t.p_holm])).toEqual([
      ['ndcg_cut.10', 2 / 64, 2 / 32],
      ['P.5', 2 / 32, 2 / 32],
    ]);
    expect(one.paired).toEqual(all.paired);
    expect(all.alarms).toEqual([]);
    expect(one.alarms).toEqual([]);
  });

  it('reads a lower-is-better metric the other way round', () => {
    const a = run('r1', base);
    const b = run(
      'r2',
      base.map((v) => v + 0.05),
    );
    const [t] = pairedAlarmTests(['ndcg_cut.10'], [a], b).tests;
    expect(pairedAlarm(t!, [t!], 'higher', '')).toBeNull();
    expect(pairedAlarm(t!, [t!], 'lower', '')).toMatch(
      /^ndcg_cut\.10 rose to 0\.55 in r2 from 0\.5 in r1, paired over 20 queries \(worse on 20, better on 0/,
    );
  });

  it('leaves out a gate metric with no per-query values, and is seeded: the same runs give the same p', () => {
    const a = run('r1', base);
    const b = run(
      'r2',
      base.map((v, i) => v + (i % 3 === 0 ? -0.04 : 0.01) + i * 1e-3),
    );
    const once = pairedAlarmTests(['error_rate', 'ndcg_cut.10'], [a], b);
    expect(once.tests.map((t) => t.metric)).toEqual(['ndcg_cut.10']);
    expect(pairedAlarmTests(['error_rate', 'ndcg_cut.10'], [a], b)).toEqual(once);
  });
});
