/**
 * The dashboard's trend page and `rgate history --html` of one stored suite, pinned byte for byte
 * (test/__snapshots__/html/trend-*.html): the pages the trend benchmark times (issue 35, item 4),
 * so a change that makes them faster cannot change what they show. The suite has what the pages
 * draw differently: eight branches and runs without one, a snapshot change, an interrupted run,
 * a baseline in the window, verdicts that change, a drop in the newest run that the paired test
 * and the interval alarm see. Over PostgreSQL too (a throwaway cluster), where the page must be
 * the same bytes as over SQLite.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteTrendView } from '../history/dashboard-views.js';
import { historyFromStore } from '../history/trends.js';
import { dashboardLinks, renderSuiteTrendPage } from '../reports/dashboard/index.js';
import { renderHistoryHtml } from '../reports/history/trends.js';
import { chartJsPath } from '../reports/index.js';
import type { MetricEntry } from '../src/documents/index.js';
import { PgRunStore, type AsyncRunStore, type RunImport } from '../src/store/index.js';
import { projectStore, type Project } from './dashboard-helpers.js';
import { artifacts, mean, outcome, rate, report, rule } from './history-helpers.js';
import { postgresUnavailable, startPgCluster, type PgCluster } from './helpers/postgres.js';

const RUNS = 40;
const QUERIES = 12;
const SUITE = 'nightly';
const RULES = [
  rule('top1_useful_rate', 'min', 0.8),
  rule('fallback_expectation_met', 'min', 0.9, 'watch'),
  rule('error_rate', 'max', 0.05),
];

/** Run i: gate rates that drift with i, the newest a drop; v2 of the fixture from run 25 on. */
function suiteRun(i: number): RunImport {
  const runId = `run-${String(i).padStart(3, '0')}`;
  const drift = (i * 7919) % 11;
  const last = i === RUNS - 1;
  const version = i >= 25 ? 'v2' : 'v1';
  const useful = last ? 5 : 10 + (drift % 2);
  const metrics: MetricEntry[] = [
    rate('top1_useful_rate', useful, QUERIES),
    rate('fallback_expectation_met', 18 + (drift % 3), 20),
    rate('error_rate', drift % 3, 200),
    mean('ndcg_cut.10', 0.6 + drift / 100, QUERIES),
    mean('recip_rank', 0.7 + drift / 100, QUERIES),
  ];
  const queries = Array.from({ length: QUERIES }, (_, q) =>
    outcome(`q${q}`, {
      top1: q < useful ? 'useful' : 'not_useful',
      measures: { 'ndcg_cut.10': ((q * 31 + i * 17) % 100) / 100, recip_rank: 1 / (1 + ((q + i) % 4)) },
    }),
  );
  const verdict = last ? 'FAIL' : drift > 8 ? 'WATCH' : 'PASS';
  const r = report({
    runId,
    suite: SUITE,
    artifacts: artifacts(version),
    queries,
    metrics,
    rules: RULES,
    verdict,
  });
  const day = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
  const branch = i % 9 === 4 ? undefined : i % 10 ? 'main' : `feature-${i % 7}<&>`;
  return {
    meta: {
      run_id: runId,
      suite: SUITE,
      started_at: day,
      artifacts: r.artifacts,
      settings: r.settings,
      git: {
        commit: (i * 2654435761).toString(16).padStart(40, '0').slice(-40),
        ...(branch !== undefined ? { branch } : {}),
      },
    },
    observations: [],
    result:
      i === 31
        ? { status: 'interrupted', finished_at: day, metrics: [] }
        : { status: 'complete', finished_at: day, gate_id: r.gate.gate_id, verdict, metrics, report: r },
  };
}

async function fill(store: AsyncRunStore): Promise<void> {
  for (let i = 0; i < RUNS; i++) expect(await store.importRun(suiteRun(i))).toBe('stored');
  await store.setBaseline(SUITE, 'run-030', 'accepted <after> review');
}

const links = dashboardLinks();

async function trendPage(store: AsyncRunStore, limit: number): Promise<string> {
  return renderSuiteTrendPage(await suiteTrendView(store, 'bench', SUITE, { limit }), links);
}

/** rgate history inlines chart.js (200 KB, changed by any npm upgrade): a marker stands for it and its hash. */
function withoutChartJs(page: string): string {
  const chart = readFileSync(chartJsPath(), 'utf8');
  const hash = `&#x27;sha256-${createHash('sha256').update(chart, 'utf8').digest('base64')}&#x27;`.replace(
    /=/g,
    '&#x3D;',
  );
  expect(page.split(chart).length - 1).toBe(1);
  return page.replace(chart, '/* chart.js */').replace(hash, '(hash of chart.js)');
}

let p: Project;

describe('the trend page and rgate history of a stored suite, byte for byte', () => {
  beforeAll(async () => {
    p = projectStore('rgate-trend-bytes-');
    await fill(p.store);
  }, 60_000);
  afterAll(() => p?.cleanup());

  it('draws the whole suite and a window of it as pinned (SQLite)', async () => {
    await expect(await trendPage(p.store, RUNS)).toMatchFileSnapshot('__snapshots__/html/trend-page.html');
    await expect(await trendPage(p.store, 15)).toMatchFileSnapshot('__snapshots__/html/trend-page-15.html');
  });

  it('rgate history --html of the same runs as pinned, and its view as the page builds it', async () => {
    const h = historyFromStore(p.sync, SUITE, { limit: RUNS });
    await expect(withoutChartJs(renderHistoryHtml(h))).toMatchFileSnapshot(
      '__snapshots__/html/trend-history.html',
    );
    expect(h).toEqual((await suiteTrendView(p.store, 'bench', SUITE, { limit: RUNS })).history);
    expect(h.alarms.length).toBeGreaterThan(0);
    expect(h.paired).toBeDefined();
  });

  const skip = postgresUnavailable();
  describe.skipIf(skip)(`over PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let cluster: PgCluster | undefined;
    let pg: PgRunStore | undefined;
    beforeAll(async () => {
      cluster = await startPgCluster();
      pg = await PgRunStore.open(await cluster.createDatabase());
      await fill(pg);
    }, 120_000);
    afterAll(async () => {
      await pg?.close();
      await cluster?.stop();
    });

    it('draws the same bytes as over SQLite', async () => {
      for (const limit of [RUNS, 15])
        expect(await trendPage(pg!, limit)).toBe(await trendPage(p.store, limit));
    });
  });
});
