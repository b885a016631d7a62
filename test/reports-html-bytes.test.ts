/**
 * Every kind of HTML page rgate writes, pinned byte for byte (test/__snapshots__/html/): the run
 * report (with and without a trend section), history, comparison and closeout pages, from the
 * hostile test documents. A template edit that moves a space shows up here; chromium tests only
 * see what renders. chart.js (200 KB, changed by any npm upgrade) is replaced by a marker, in the
 * page and in the CSP; everything else, client scripts and their hashes included, is compared as is.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeCompare } from '../history/compare.js';
import { parseSweep, sweepVariants } from '../history/compare-variants.js';
import { buildHistory } from '../history/trends.js';
import { renderCloseoutHtml } from '../reports/history/closeout.js';
import { renderSessionHtml } from '../reports/history/compare.js';
import { renderHistoryHtml } from '../reports/history/trends.js';
import { renderHtml } from '../reports/run/html.js';
import { chartJsPath } from '../reports/index.js';
import { EVIL, hostileCloseout, hostileSession } from './compare-helpers.js';
import { sampleFindingsReport, sampleGateCReport, sampleReport } from './fixtures/sample-report.js';
import { artifacts, mean, outcome, rate, report, rule } from './history-helpers.js';
import { SETTINGS } from './helpers/run-rows.js';

/** Beyond EVIL: what the HTML escaper must handle and a stray handlebars expression in data. */
const NASTY = `${EVIL} it's "q" a=b \`tick\` & <i>\u2028</i>\n\t{{x}} {{{y}}}`;

function historyRuns(suite: string, n: number) {
  return Array.from({ length: n }, (_, k) => k + 1).map((i) => ({
    row: {
      run_id: `r${i}${i === 2 ? NASTY : ''}`,
      suite,
      started_at: `2026-11-0${i}T00:00:00Z`,
      artifacts: artifacts(i === 1 ? 'v0' : 'v1'),
      settings: SETTINGS,
      status: 'complete' as const,
      finished_at: null,
      gate_id: 'g',
      verdict: i === n ? ('FAIL' as const) : i === 1 ? null : ('PASS' as const),
      observation_count: 1,
    },
    metrics: [
      rate('top1_useful_rate', i === n ? 30 : 40 + i, 50, [0.7, 0.95]),
      rate('budget_compliance', 50, 50),
      mean('ndcg_cut.5', 0.5 + i / 100, 50),
    ],
  }));
}

function runWithTrend(): string {
  const r = sampleReport('fail');
  const h = buildHistory(r.suite, historyRuns(r.suite, 3).reverse(), {
    gateRules: r.gate.rules.map((x) => ({ metric: x.metric, op: x.op })),
  });
  h.runs.push({
    run_id: r.environment.run_id,
    started_at: r.environment.started_at,
    status: 'complete',
    gate_id: r.gate.gate_id,
    verdict: r.gate.verdict,
    version: r.artifacts.version,
  });
  return renderHtml(r, { history: h });
}

function historyPage(): string {
  const h = buildHistory(NASTY, historyRuns(NASTY, 4).reverse(), {
    gateRules: [
      { metric: 'top1_useful_rate', op: 'min' },
      { metric: 'ndcg_cut.5', op: 'min' },
    ],
  });
  h.alarms.push(NASTY);
  return renderHistoryHtml(h);
}

function sweepPage(): string {
  const sweep = parseSweep('bm25.k1=0.6:1.2:0.3');
  const ids = Array.from({ length: 12 }, (_, i) => `q${i}`);
  const reports = sweep.values.map((k, j) =>
    report({
      runId: `p${j}`,
      rules: [rule('ndcg_cut.5', 'min', 0.5)],
      metrics: [mean('ndcg_cut.5', 0.4 + k / 10, 12)],
      queries: ids.map((id, i) =>
        outcome(id, {
          top1: (i + j) % 3 ? 'useful' : 'not_useful',
          measures: { 'ndcg_cut.5': ((i * 7) % 10) / 10 + (i % 2 ? k / 10 : 0) },
        }),
      ),
    }),
  );
  return renderSessionHtml(
    analyzeCompare({
      suite: 'ctx',
      kind: 'sweep',
      sweep,
      variants: sweepVariants(sweep).map((spec, i) => ({ spec, report: reports[i]! })),
      settings: { seed: 1, alpha: 0.05, resamples: 200, permutations: 200 },
      environment: { session_id: 'cmp-sweep', created_at: 't' },
    }),
  );
}

function closeoutBare(): string {
  const c = hostileCloseout();
  c.ready = false;
  c.gate.verdict = 'FAIL';
  c.gate.reasons = [NASTY];
  c.gate.rules = [];
  c.gate.checklist = [
    { id: 'c1', text: NASTY, ok: true, evidence: NASTY },
    { id: 'c2', text: 'second', ok: false, evidence: 'e' },
  ];
  c.baseline = null;
  c.freeze.history = [
    { version: 'v1', frozen_on: '2026-11-01', corpus_id: 'c', query_set_id: 'q', config_id: 'k' },
  ];
  c.determinism.identical = false;
  c.determinism.divergent = [
    { query_id: NASTY, field: 'selected_id', groups: [{ fingerprint: 'sha256:f', replays: [1] }] },
  ];
  c.failing_queries = [];
  c.residuals = [];
  return renderCloseoutHtml(c);
}

const PAGES: [string, () => string][] = [
  ['run-pass', () => renderHtml(sampleReport('pass'))],
  ['run-fail-trend', runWithTrend],
  ['run-gate-c', () => renderHtml(sampleGateCReport())],
  ['run-findings', () => renderHtml(sampleFindingsReport())],
  ['history', historyPage],
  [
    'history-empty',
    () =>
      renderHistoryHtml({ suite: 'ctx', runs: [], skipped: [], trends: [], alarms: [], not_applicable: [] }),
  ],
  ['compare', () => renderSessionHtml(hostileSession())],
  ['compare-sweep', sweepPage],
  ['closeout', () => renderCloseoutHtml(hostileCloseout())],
  ['closeout-bare', closeoutBare],
];

describe('HTML pages, byte for byte', () => {
  const chart = readFileSync(chartJsPath(), 'utf8');
  // as the CSP attribute spells it: handlebars writes ' and = as entities
  const chartHash =
    `&#x27;sha256-${createHash('sha256').update(chart, 'utf8').digest('base64')}&#x27;`.replace(
      /=/g,
      '&#x3D;',
    );

  it.each(PAGES)('%s', async (name, render) => {
    const page = render();
    const inlined = page.split(chart).length - 1;
    // the run report always inlines chart.js; the other pages only when they draw a chart
    expect(inlined).toBe(name.startsWith('run-') || !/empty|bare/.test(name) ? 1 : 0);
    expect(page.split(chartHash).length - 1).toBe(inlined);
    const pinned = page.replace(chart, '/* chart.js */').replace(chartHash, '(hash of chart.js)');
    await expect(pinned).toMatchFileSnapshot(`__snapshots__/html/${name}.html`);
  });
});
