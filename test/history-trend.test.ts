import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { historyFromStore, sparkline, storedSuites } from '../history/trends.js';
import { suiteTrendView } from '../history/dashboard-views.js';
import { asAsync } from '../src/store/async-store.js';
import { diffReports } from '../history/diff.js';
import { historyUpToRun } from '../history/trends-up-to.js';
import { noAlarmLine, pairedLine } from '../reports/history/trends.js';
import type { ArtifactRefs } from '../src/documents/index.js';
import Database from 'better-sqlite3';
import { SqliteRunStore } from '../src/store/index.js';
import { artifacts, mean, outcome, rate, report, rule, storeRun, tempDir } from './history-helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function store(): SqliteRunStore {
  const t = tempDir('rgate-history-');
  cleanups.push(t.cleanup);
  return new SqliteRunStore(join(t.dir, 'history.sqlite'));
}

const gateRules = [rule('top1_useful_rate', 'min', 0.8), rule('error_rate', 'max', 0.05)];

describe('sparkline', () => {
  it('maps the series min..max onto eight blocks, gaps for missing values', () => {
    expect(sparkline([0, 0.5, 1])).toBe('▁▅█');
    expect(sparkline([0.8, null, 0.8])).toBe('▄ ▄');
    expect(sparkline([])).toBe('');
  });
});

describe('rgate history trends on a real SQLite store', () => {
  it('lists complete runs oldest to newest, with deltas, and skips interrupted runs', () => {
    const s = store();
    const mk = (id: string, num: number, t: string, status: 'complete' | 'interrupted' = 'complete') =>
      storeRun(
        s,
        report({
          runId: id,
          queries: [outcome('q1')],
          metrics: [rate('top1_useful_rate', num, 50), rate('error_rate', 0, 50)],
          rules: gateRules,
        }),
        { startedAt: t, status },
      );
    mk('r1', 40, '2026-11-01T00:00:00Z');
    mk('r2', 42, '2026-11-02T00:00:00Z');
    mk('r3', 10, '2026-11-03T00:00:00Z', 'interrupted');
    mk('r4', 43, '2026-11-04T00:00:00Z');
    const h = historyFromStore(s, 'ctx');
    expect(h.runs.map((r) => r.run_id)).toEqual(['r1', 'r2', 'r4']);
    expect(h.skipped.map((r) => r.run_id)).toEqual(['r3']);
    const t = h.trends.find((x) => x.metric === 'top1_useful_rate')!;
    expect(t.points.map((p) => p.value)).toEqual([0.8, 0.84, 0.86]);
    expect(t.delta).toBeCloseTo(0.02, 10);
    expect(t.gate_metric).toBe(true);
    expect(t.alarm).toBeNull();
    expect(h.alarms).toEqual([]);
    // gate metrics first, in rule order
    expect(h.trends.map((x) => x.metric)).toEqual(['top1_useful_rate', 'error_rate']);
    expect(storedSuites(s)).toEqual(['ctx']);
    s.close();
  });

  it('alarms when a gate metric drops below the previous Wilson interval and when the verdict worsens', () => {
    const s = store();
    storeRun(
      s,
      report({
        runId: 'a',
        queries: [],
        metrics: [rate('top1_useful_rate', 45, 50, [0.79, 0.96]), rate('error_rate', 0, 50, [0, 0.07])],
        rules: gateRules,
      }),
      { startedAt: '2026-11-01T00:00:00Z' },
    );
    storeRun(
      s,
      report({
        runId: 'b',
        queries: [],
        metrics: [rate('top1_useful_rate', 38, 50), rate('error_rate', 5, 50)],
        rules: gateRules,
        verdict: 'FAIL',
      }),
      { startedAt: '2026-11-02T00:00:00Z' },
    );
    const h = historyFromStore(s, 'ctx');
    const top1 = h.trends.find((x) => x.metric === 'top1_useful_rate')!;
    expect(top1.alarm).toMatch(
      /dropped to 0\.76 in b, below the previous run's 95% interval \[0\.79, 0\.96\] \(was 0\.9 in a\)$/,
    );
    const err = h.trends.find((x) => x.metric === 'error_rate')!;
    expect(err.better).toBe('lower');
    expect(err.alarm).toMatch(/rose to 0\.1 in b, above/);
    expect(h.alarms[0]).toBe('verdict worsened: PASS (a) -> FAIL (b)');
    s.close();
  });

  it('does not compare across a snapshot change and says so per point', () => {
    const s = store();
    storeRun(
      s,
      report({
        runId: 'a',
        queries: [],
        metrics: [rate('top1_useful_rate', 45, 50, [0.79, 0.96])],
        rules: gateRules,
      }),
      {
        startedAt: '2026-11-01T00:00:00Z',
      },
    );
    storeRun(
      s,
      report({
        runId: 'b',
        artifacts: artifacts('v2'),
        queries: [],
        metrics: [rate('top1_useful_rate', 30, 50)],
        rules: gateRules,
      }),
      { startedAt: '2026-11-02T00:00:00Z' },
    );
    const t = historyFromStore(s, 'ctx').trends[0]!;
    expect(t.points.map((p) => p.snapshot_changed)).toEqual([false, true]);
    expect(t.alarm).toBeNull();
    s.close();
  });

  it('compares past a --set run with the newest run on the same snapshot and config, and names it', () => {
    const s = store();
    const night = (id: string, num: number, t: string, over: Partial<ArtifactRefs> = {}) =>
      storeRun(
        s,
        report({
          runId: id,
          artifacts: artifacts('v1', over),
          queries: [],
          metrics: [rate('top1_useful_rate', num, 50, num === 45 ? [0.79, 0.96] : undefined)],
          rules: gateRules,
        }),
        { startedAt: t },
      );
    night('n1', 45, '2026-11-01T00:00:00Z');
    // a `--set k=12` experiment: same ids, another effective config hash
    night('x', 45, '2026-11-01T12:00:00Z', { config_sha256: `sha256:${'d'.repeat(64)}` });
    night('n2', 38, '2026-11-02T00:00:00Z');
    const h = historyFromStore(s, 'ctx');
    expect(h.compared_with).toBe('n1');
    expect(h.runs.map((r) => r.same_as_newest)).toEqual([true, false, true]);
    const t = h.trends[0]!;
    expect(t.alarm).toBe(
      "top1_useful_rate dropped to 0.76 in n2, below n1's 95% interval [0.79, 0.96] (was 0.9 in n1, " +
        'the newest run on the same snapshot and config; 1 run(s) in between used another)',
    );
    expect(h.alarms).toEqual([t.alarm]);
    s.close();
  });

  it('says so when no earlier run is on the same snapshot and config, and names a passed-over comparison', () => {
    const s = store();
    const at = (id: string, t: string, version: string) =>
      storeRun(
        s,
        report({
          runId: id,
          artifacts: artifacts(version),
          queries: [],
          metrics: [rate('top1_useful_rate', 45, 50, [0.79, 0.96])],
          rules: gateRules,
        }),
        { startedAt: t },
      );
    at('a', '2026-11-01T00:00:00Z', 'v1');
    at('b', '2026-11-02T00:00:00Z', 'v2');
    const none = historyFromStore(s, 'ctx');
    expect(none.compared_with).toBeUndefined();
    expect(noAlarmLine(none)).toBe(
      'No regression alarm: no earlier run among the newest 20 has the same snapshot and config, so no metric was compared; the verdict is no worse than in a, the run before.',
    );
    at('c', '2026-11-03T00:00:00Z', 'v1');
    const past = historyFromStore(s, 'ctx');
    expect(past.alarms).toEqual([]);
    expect(noAlarmLine(past)).toBe(
      'No regression alarm: no gate metric got worse than in a, the newest earlier run on the same snapshot and config; the verdict is no worse than in b, the run before.',
    );
    at('d', '2026-11-04T00:00:00Z', 'v1');
    expect(noAlarmLine(historyFromStore(s, 'ctx'))).toBe(
      'No regression alarm: neither a gate metric nor the verdict got worse than in c, the run before, on the same snapshot and config.',
    );
    s.close();
  });

  it('says there was nothing to compare with when the window holds one complete run', () => {
    const s = store();
    storeRun(
      s,
      report({ runId: 'only', queries: [], metrics: [rate('top1_useful_rate', 45, 50)], rules: gateRules }),
      { startedAt: '2026-11-01T00:00:00Z' },
    );
    expect(noAlarmLine(historyFromStore(s, 'ctx'))).toBe(
      'No regression alarm: no earlier complete run among the newest 20 to compare with.',
    );
    s.close();
  });

  it('the dashboard (100 runs) and rgate history (20) raise the same alarm over more than 20 runs', async () => {
    const s = store();
    let day = 0;
    const at = (
      id: string,
      version: string,
      num: number,
      o: { verdict?: 'PASS' | 'FAIL'; status?: 'failed' } = {},
    ) =>
      storeRun(
        s,
        report({
          runId: id,
          artifacts: artifacts(version),
          queries: [],
          metrics: [rate('top1_useful_rate', num, 50, [num / 50 - 0.05, num / 50 + 0.05])],
          rules: gateRules,
          verdict: o.verdict ?? 'PASS',
        }),
        {
          startedAt: `2026-10-01T00:00:00Z`.replace('00:00:00', `00:${String(day++).padStart(2, '0')}:00`),
          ...(o.status ? { status: o.status } : {}),
        },
      );
    // the one run on the newest run's snapshot lies 24 runs back: past the alarm window, inside the
    // dashboard's; then 19 failed runs hide the run before the newest complete one's verdict
    at('same-snapshot', 'v1', 48);
    for (let i = 0; i < 23; i++) at(`experiment-${String(i).padStart(2, '0')}`, 'v2', 45);
    at('newest', 'v1', 20);
    const both = async () => {
      const cli = historyFromStore(s, 'ctx');
      const dashboard = (await suiteTrendView(asAsync(s), 'p', 'ctx')).history;
      expect(dashboard.runs.length).toBeGreaterThan(cli.runs.length);
      expect(dashboard.alarms).toEqual(cli.alarms);
      expect(dashboard.compared_with).toEqual(cli.compared_with);
      expect(noAlarmLine(dashboard)).toBe(noAlarmLine(cli));
      return cli;
    };
    const metric = await both();
    expect(metric.alarms).toEqual([]);
    expect(noAlarmLine(metric)).toBe(
      'No regression alarm: no earlier run among the newest 20 has the same snapshot and config, so no metric was compared; the verdict is no worse than in experiment-22, the run before.',
    );
    for (let i = 0; i < 19; i++) at(`broken-${String(i).padStart(2, '0')}`, 'v1', 0, { status: 'failed' });
    at('failing', 'v1', 20, { verdict: 'FAIL' });
    const verdict = await both();
    expect(verdict.alarms).toEqual([]);
    expect(noAlarmLine(verdict)).toBe(
      'No regression alarm: no earlier complete run among the newest 20 to compare with (the gate verdict above still stands).',
    );
    s.close();
  });

  it('refuses an unknown metric and an unknown suite with a usable hint', () => {
    const s = store();
    storeRun(s, report({ runId: 'a', queries: [], metrics: [rate('top1_useful_rate', 1, 2)] }), {
      startedAt: 't1',
    });
    expect(() => historyFromStore(s, 'ctx', { metric: 'ndcg' })).toThrow(/--metric ndcg: not measured/);
    expect(() => historyFromStore(s, 'nope')).toThrow(/no runs of suite "nope"/);
    s.close();
  });
});

describe('the paired alarm, read from a real SQLite store', () => {
  const base = [0.2, 0.4, 0.6, 0.3, 0.5, 0.7, 0.2, 0.4, 0.6, 0.3, 0.5, 0.7];
  const storeNdcg = (s: SqliteRunStore, id: string, t: string, vals: number[]) => {
    const m = vals.reduce((a, b) => a + b, 0) / vals.length;
    const r = report({
      runId: id,
      queries: vals.map((v, i) => outcome(`q${i}`, { measures: { 'ndcg_cut.10': v } })),
      metrics: [mean('ndcg_cut.10', m, vals.length, [m - 0.2, m + 0.2])],
      rules: [rule('ndcg_cut.10', 'min', 0.2)],
    });
    storeRun(s, { ...r, environment: { ...r.environment, started_at: t } }, { startedAt: t });
  };

  it('says the paired test did not run when the compared report is missing or unreadable, in every view', async () => {
    const s = store();
    storeNdcg(s, 'r1', '2026-11-01T00:00:00Z', base);
    storeNdcg(
      s,
      'r2',
      '2026-11-02T00:00:00Z',
      base.map((v, i) => (i < 10 ? v - 0.1 : v)),
    );
    expect(historyFromStore(s, 'ctx').alarms).toHaveLength(1);
    const db = new Database(s.location);
    for (const [bytes, why] of [
      [null, 'the stored report of r1 is missing or no longer valid'],
      [Buffer.from([0, 17, 34, 51]), 'the stored report of r1 cannot be read'],
    ] as const) {
      db.prepare('UPDATE runs SET report_json = ? WHERE run_id = ?').run(bytes, 'r1');
      const cli = historyFromStore(s, 'ctx');
      expect(cli.alarms).toEqual([]);
      expect(cli.paired).toBeUndefined();
      expect(cli.paired_unavailable).toContain(why);
      expect(noAlarmLine(cli)).toMatch(
        new RegExp(
          `^No regression alarm: neither a gate metric nor the verdict got worse than in r1, the run before, on the same snapshot and config \\(95% interval only: ${why}.*, so no paired test\\)\\.$`,
        ),
      );
      const dashboard = (await suiteTrendView(asAsync(s), 'p', 'ctx')).history;
      expect(dashboard.paired_unavailable).toBe(cli.paired_unavailable);
      expect(historyUpToRun(s, 'r2')!.paired_unavailable).toBe(cli.paired_unavailable);
    }
    db.close();
    s.close();
  });

  it("holds the newest run to the suite's baseline too: a drop spread over nights, and a CI retry of the night that dropped", () => {
    const s = store();
    // each night 4 more of the 12 queries lose 0.1: night to night 4 of 12 moved, exact p = 2/16 = .125
    const night = (k: number) => base.map((v, i) => (i < 4 * k ? v - 0.1 : v));
    storeNdcg(s, 'b0', '2026-11-01T00:00:00Z', night(0));
    storeNdcg(s, 'n1', '2026-11-02T00:00:00Z', night(1));
    expect(historyFromStore(s, 'ctx').alarms).toEqual([]);
    storeNdcg(s, 'n2', '2026-11-03T00:00:00Z', night(2));
    expect(historyFromStore(s, 'ctx').alarms).toEqual([]);
    s.setBaseline('ctx', 'b0');
    const drift = historyFromStore(s, 'ctx');
    // against the baseline 8 of 12 dropped: p = 2/256 = .0078, Holm over the 2 tests that moved: .0156
    expect(drift.paired!.baseline).toBe('b0');
    expect(drift.paired!.tests.map((t) => [t.a, t.p_value, t.p_holm])).toEqual([
      ['n1', 2 / 16, 2 / 16],
      ['b0', 2 / 256, 4 / 256],
    ]);
    expect(drift.alarms).toEqual([
      "ndcg_cut.10 fell to 0.3833 in n2 from 0.45 in b0 (the suite's baseline), paired over 12 queries (worse on 8, better on 0, tied on 4): sign-flip p=.0078, Holm p=.0156 over 2 tests (gate metrics against each run compared with)",
    ]);
    expect(pairedLine(drift)).toBe(
      "Paired query by query (sign-flip test, Holm over the 2 tests that moved, alpha 0.05; an alarm when significant the bad way), with n1: ndcg_cut.10 -0.0333 on 12 queries, p=.1250, Holm p=.1250; with the suite's baseline b0: ndcg_cut.10 -0.0667 on 12 queries, p=.0078, Holm p=.0156.",
    );
    // the retry of n2: tied with n2, still held to the baseline
    storeNdcg(s, 'n2-retry', '2026-11-04T00:00:00Z', night(2));
    const retry = historyFromStore(s, 'ctx');
    expect(retry.compared_with).toBe('n2');
    expect(retry.alarms).toHaveLength(1);
    expect(retry.alarms[0]).toMatch(
      /^ndcg_cut\.10 fell to 0\.3833 in n2-retry from 0\.45 in b0 \(the suite's baseline\)/,
    );
    // the dashboard and the run report hold it to the same baseline
    return suiteTrendView(asAsync(s), 'p', 'ctx').then((v) => {
      expect(v.history.alarms).toEqual(retry.alarms);
      expect(historyUpToRun(s, 'n2-retry')!.alarms).toEqual(retry.alarms);
      // a run before the baseline was set is not held to it when its report is drawn again
      s.setBaseline('ctx', 'n2-retry');
      expect(historyUpToRun(s, 'n2')!.paired!.baseline).toBeUndefined();
      s.close();
    });
  });

  it('names the narrower window a --limit below 20 decides from', () => {
    const s = store();
    storeNdcg(s, 'r1', '2026-11-01T00:00:00Z', base);
    for (let i = 2; i <= 4; i++) {
      const r = report({
        runId: `x${i}`,
        artifacts: artifacts('v2'),
        queries: [],
        rules: [rule('ndcg_cut.10', 'min', 0.2)],
      });
      storeRun(s, r, { startedAt: `2026-11-0${i}T00:00:00Z` });
    }
    storeNdcg(s, 'r5', '2026-11-05T00:00:00Z', base);
    expect(historyFromStore(s, 'ctx').compared_with).toBe('r1');
    const narrow = historyFromStore(s, 'ctx', { limit: 3 });
    expect(narrow.compared_with).toBeUndefined();
    expect(noAlarmLine(narrow)).toBe(
      'No regression alarm: no earlier run among the newest 3 read (a limit below 20) has the same snapshot and config, so no metric was compared; the verdict is no worse than in x4, the run before.',
    );
    s.close();
  });

  it('rgate history, the dashboard and the run report test the same two stored runs and raise the same alarm', async () => {
    const s = store();
    const at = (id: string, t: string, vals: number[], status?: 'interrupted') => {
      const m = vals.reduce((a, b) => a + b, 0) / vals.length;
      storeRun(
        s,
        report({
          runId: id,
          queries: vals.map((v, i) => outcome(`q${i}`, { measures: { 'ndcg_cut.10': v } })),
          metrics: [mean('ndcg_cut.10', m, vals.length, [m - 0.2, m + 0.2])],
          rules: [rule('ndcg_cut.10', 'min', 0.2)],
        }),
        { startedAt: t, ...(status ? { status } : {}) },
      );
    };
    const base = [0.2, 0.4, 0.6, 0.3, 0.5, 0.7, 0.2, 0.4, 0.6, 0.3, 0.5, 0.7];
    at('r1', '2026-11-01T00:00:00Z', base);
    // an interrupted run in between is not what the newest is compared with
    at(
      'r2',
      '2026-11-02T00:00:00Z',
      base.map(() => 0),
      'interrupted',
    );
    at(
      'r3',
      '2026-11-03T00:00:00Z',
      base.map((v, i) => (i < 10 ? v - 0.1 : v)),
    );
    const cli = historyFromStore(s, 'ctx');
    expect(cli.compared_with).toBe('r1');
    expect(cli.paired?.tests).toHaveLength(1);
    // 10 queries each 0.1 lower, 2 tied: exact p = 2/2^10
    expect(cli.paired!.tests[0]).toMatchObject({
      a: 'r1',
      b: 'r3',
      n: 12,
      losses: 10,
      ties: 2,
      p_exact: true,
    });
    expect(cli.paired!.tests[0]!.p_value).toBeCloseTo(2 / 1024, 15);
    expect(cli.alarms).toEqual([
      'ndcg_cut.10 fell to 0.3667 in r3 from 0.45 in r1, paired over 12 queries (worse on 10, better on 0, tied on 2): sign-flip p=.0020, Holm p=.0020 over 1 gate metric',
    ]);
    expect(pairedLine(cli)).toBe(
      'Paired query by query (sign-flip test, Holm over the 1 gate metric that moved, alpha 0.05; an alarm when significant the bad way), with r1: ndcg_cut.10 -0.0833 on 12 queries, p=.0020, Holm p=.0020.',
    );
    const dashboard = (await suiteTrendView(asAsync(s), 'p', 'ctx')).history;
    expect(dashboard.paired).toEqual(cli.paired);
    expect(dashboard.alarms).toEqual(cli.alarms);
    const own = historyUpToRun(s, 'r3')!;
    expect(own.paired).toEqual(cli.paired);
    expect(own.alarms).toEqual(cli.alarms);
    s.close();
  });
});

describe('rgate diff', () => {
  it('classifies per-query regressions, improvements, changed top-1 and changed selection mode', () => {
    const a = report({
      runId: 'A',
      queries: [
        outcome('q1', { top1: 'useful' }),
        outcome('q2', { top1: 'not_useful', selected: 'x' }),
        outcome('q3', { measures: { 'ndcg_cut.5': 0.5 } }),
        outcome('q4', { mode: 'semantic' }),
        outcome('q5'),
        outcome('gone'),
      ],
      metrics: [rate('top1_useful_rate', 4, 5)],
    });
    const b = report({
      runId: 'B',
      queries: [
        outcome('q1', { top1: 'not_useful', selected: 'y' }),
        outcome('q2', { top1: 'useful' }),
        outcome('q3', { measures: { 'ndcg_cut.5': 0.25 } }),
        outcome('q4', { mode: 'fallback_exact_key' }),
        outcome('q5'),
        outcome('new'),
      ],
      metrics: [rate('top1_useful_rate', 3, 5)],
    });
    const d = diffReports(a, b);
    expect(d.regressions.map((c) => c.query_id)).toEqual(['q1', 'q3']);
    expect(d.improvements.map((c) => c.query_id)).toEqual(['q2']);
    expect(d.changed_top1.map((c) => c.query_id)).toEqual(['q1', 'q2']);
    expect(d.changed_selection_mode.map((c) => c.query_id)).toEqual(['q4']);
    expect(d.regressions[1]!.changes).toEqual(['ndcg_cut.5 -0.25']);
    expect(d.only_in_a).toEqual(['gone']);
    expect(d.only_in_b).toEqual(['new']);
    expect(d.unchanged).toBe(1);
    expect(d.same_snapshot).toBe(true);
    expect(d.metrics).toEqual([{ measure: 'top1_useful_rate', a: 0.8, b: 0.6, delta: 0.6 - 0.8 }]);
  });
});
