/**
 * Issue 23 item 4: what an on-call reader sees must not contradict the verdict. Each case below was a
 * real misreading: a failing metric marked `ok`, "No regression alarm" above a FAIL run, metrics
 * that do not apply listed as 0.0%, a suite without a gate summarised as "every gate passed", two
 * counts of one labeling queue, and a passing contract run listing failing queries for a top-1 its
 * gate does not judge.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { historyFromStore } from '../history/trends.js';
import { showBaseline, setSuiteBaseline } from '../history/baseline.js';
import { withFailureReasons } from '../harness/failure-reasons.js';
import {
  renderBaselineTerminal,
  renderHistoryHtml,
  renderHistoryMarkdown,
  renderHistoryTerminal,
} from '../reports/history/trends.js';
import { renderOverall } from '../reports/run/overall.js';
import { labelQueueSize } from '../reports/history/label-queue.js';
import { SqliteRunStore } from '../src/store/index.js';
import type { LabelQueue, Report } from '../src/documents/index.js';
import { outcome, rate, report, rule, storeRun, tempDir } from './history-helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function store(): SqliteRunStore {
  const t = tempDir('rgate-true-');
  cleanups.push(t.cleanup);
  return new SqliteRunStore(join(t.dir, 'history.sqlite'));
}

/** Two runs of a suite whose top1_useful_rate fails its min 0.8 both times (no regression between them). */
function failingHistory(): SqliteRunStore {
  const s = store();
  for (const [id, day] of [
    ['r1', '01'],
    ['r2', '02'],
  ] as const) {
    storeRun(
      s,
      report({
        runId: id,
        queries: [outcome('q1')],
        verdict: 'FAIL',
        metrics: [
          rate('top1_useful_rate', 43, 100),
          rate('error_rate', 0, 100),
          rate('fallback_expectation_met', 0, 0),
        ],
        rules: [rule('top1_useful_rate', 'min', 0.8, 'fail'), rule('error_rate', 'max', 0.05, 'pass')],
      }),
      { startedAt: `2026-11-${day}T00:00:00Z` },
    );
  }
  return s;
}

describe('history states the verdict beside any alarm', () => {
  it('marks a failing gate metric FAIL, never ok, and says the newest run failed above "no alarm"', () => {
    const s = failingHistory();
    const h = historyFromStore(s, 'ctx');
    expect(h.trends.find((t) => t.metric === 'top1_useful_rate')!.rule_status).toBe('fail');
    expect(h.alarms).toEqual([]);
    const text = renderHistoryTerminal(h);
    const row = text.split('\n').find((l) => l.startsWith('top1_useful_rate'))!;
    expect(row).toMatch(/FAIL\s*$/);
    expect(text).not.toMatch(/\bok\b/);
    expect(text).toContain('Newest run r2: FAIL (gate test-gate).');
    // wrapped to 80 columns: read as one line
    expect(text.replace(/\n +/g, ' ')).toContain(
      'No regression alarm: neither a gate metric nor the verdict got worse than in r1, the run before, on the same snapshot and config (the gate verdict above still stands).',
    );
    // a metric with nothing to count has no trend row, and the reader is told why
    expect(text).not.toMatch(/^fallback_expectation_met/m);
    expect(text).toContain('not applicable: fallback_expectation_met (nothing to count)');
    expect(renderHistoryMarkdown(h)).toContain('**Newest run r2: FAIL (gate test-gate).**');
    const html = renderHistoryHtml(h);
    expect(html).toContain('<div class="banner FAIL">Newest run r2: FAIL (gate test-gate).</div>');
    expect(html).not.toContain('banner PASS');
    s.close();
  });

  it('baseline show lists only the measures that apply, and names the others', () => {
    const s = failingHistory();
    setSuiteBaseline(s, 'ctx', 'r2');
    const b = showBaseline(s, 'ctx');
    expect(b.metrics.map((m) => m.id)).toEqual(['error_rate', 'top1_useful_rate']);
    expect(b.not_applicable).toEqual([{ id: 'fallback_expectation_met', why: 'nothing to count' }]);
    const text = renderBaselineTerminal(b);
    expect(text).not.toMatch(/fallback_expectation_met\s+0\/0/);
    expect(text).toContain('not applicable: fallback_expectation_met (nothing to count)');
    s.close();
  });
});

function ungated(suite: string): Report {
  return {
    suite,
    gate: {
      gate_id: 'measures-only',
      gate_version: '0',
      verdict: 'PASS',
      rules: [],
      reasons: [],
      checklist: [],
    },
    timing: { timing_rules: [] },
  } as unknown as Report;
}

describe('a suite without a gate passes nothing', () => {
  it('is summarised as "no gate", not as PASS', () => {
    const text = renderOverall([ungated('cacm')], { exitCode: 0 });
    expect(text).toMatch(/^ {2}NONE {2}cacm +no gate \(measures only, nothing enforced\)$/m);
    expect(text.split('\n').at(-1)).toBe(
      'rgate: cacm NONE (no gate) -> exit 0 (no gate: measures only, nothing enforced)',
    );
    expect(text).not.toContain('every gate passed');
  });
});

describe('failure reasons follow what the gate judges', () => {
  const queries = [outcome('q1', { top1: 'not_useful' }), outcome('q2', { deterministic: false })];

  it('a contract gate that reads no top-1 and no stability lists neither', () => {
    const { failing } = withFailureReasons(queries, false, ['semantic'], ['contract_validity', 'error_rate']);
    expect(failing).toEqual([]);
  });

  it('a gate with a top-1 rule, and a run without a gate, list the top-1 miss', () => {
    const gated = withFailureReasons(queries, false, ['semantic'], ['top1_useful_any_mode']);
    expect(gated.failing.map((q) => [q.query_id, q.failure_reasons])).toEqual([['q1', ['top-1 not useful']]]);
    const none = withFailureReasons(queries, false, ['semantic'], undefined);
    expect(none.failing.map((q) => q.query_id)).toEqual(['q1', 'q2']);
  });
});

describe('the labeling queue is counted once', () => {
  it('says how many judged queries have pairs left, of how many', () => {
    const q = {
      judged_queries: 90,
      items: [
        { query_id: 'a', doc_id: 'd1' },
        { query_id: 'a', doc_id: 'd2' },
        { query_id: 'b', doc_id: 'd1' },
      ],
    } as unknown as LabelQueue;
    expect(labelQueueSize(q)).toBe('3 unjudged (query, document) pair(s) in 2 of the 90 judged queries');
  });
});
