/**
 * The comparison, history and closeout pages as a reviewer sees them: Debian's chromium opens each
 * file, every chart canvas must draw (the CSP hashes must match the inlined scripts), nothing logs an
 * error or touches the network, and planted `<script>`s stay inert. Screenshots go to .rgate/screenshots/.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCompare } from '../history/compare.js';
import { parseSweep, sweepVariants } from '../history/compare-variants.js';
import { buildHistory } from '../history/trends.js';
import { renderCloseoutHtml } from '../reports/history/closeout.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { renderHistoryHtml } from '../reports/history/trends.js';
import { renderSessionHtml } from '../reports/history/compare.js';
import { hostileCloseout, hostileSession } from './compare-helpers.js';
import { artifacts, mean, outcome, rate, report, rule } from './history-helpers.js';
import { SETTINGS } from './helpers/run-rows.js';

const root = resolve(import.meta.dirname, '..');
let browser: Browser | undefined;
const dir = mkdtempSync(join(tmpdir(), 'rgate-cmp-html-'));

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function sweepPage(): string {
  const sweep = parseSweep('bm25.k1=0.6:1.2:0.3');
  const ids = Array.from({ length: 20 }, (_, i) => `q${i}`);
  const reports = sweep.values.map((k, j) =>
    report({
      runId: `p${j}`,
      rules: [rule('ndcg_cut.5', 'min', 0.5), rule('recall.10', 'min', 0.8)],
      metrics: [mean('ndcg_cut.5', 0.4 + k / 10, 20), mean('recall.10', 0.7 + k / 10, 20)],
      queries: ids.map((id, i) =>
        outcome(id, { measures: { 'ndcg_cut.5': ((i * 7) % 10) / 10 + (i % 2 ? k / 10 : 0) } }),
      ),
    }),
  );
  const s = analyzeCompare({
    suite: 'ctx',
    kind: 'sweep',
    sweep,
    variants: sweepVariants(sweep).map((spec, i) => ({ spec, report: reports[i]! })),
    settings: { seed: 1, alpha: 0.05, resamples: 300, permutations: 1000 },
    environment: { session_id: 'cmp-sweep', created_at: 't' },
  });
  return renderSessionHtml(s);
}

function historyPage(): string {
  const runs = [1, 2, 3, 4].map((i) => ({
    row: {
      run_id: `r${i}`,
      suite: 'ctx',
      started_at: `2026-11-0${i}T00:00:00Z`,
      artifacts: artifacts(),
      settings: SETTINGS,
      status: 'complete' as const,
      finished_at: null,
      gate_id: 'g',
      verdict: 'PASS' as const,
      observation_count: 1,
    },
    metrics: [rate('top1_useful_rate', 40 + i, 50), rate('budget_compliance', 50, 50)],
  }));
  return renderHistoryHtml(
    buildHistory('ctx', [...runs].reverse(), {
      gateRules: [
        { metric: 'top1_useful_rate', op: 'min' },
        { metric: 'budget_compliance', op: 'min' },
      ],
    }),
  );
}

const pages: [string, () => string, number][] = [
  ['compare-hostile', () => renderSessionHtml(hostileSession()), 1],
  ['compare-sweep', sweepPage, 3],
  ['closeout', () => renderCloseoutHtml(hostileCloseout()), 1],
  ['history', historyPage, 2],
];

describe('comparison, history and closeout pages in chromium', () => {
  it.each(pages)(
    '%s: every chart draws, no error, no network, planted scripts inert',
    async (name, render, charts) => {
      if (!browser) throw new Error(CHROMIUM_MISSING);
      const file = join(dir, `${name}.html`);
      writeFileSync(file, render());
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      const requests: string[] = [];
      const dialogs: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => typeof (globalThis as { Chart?: unknown }).Chart !== 'undefined');
      const drawn = await page.$$eval('canvas', (cs) => cs.map((c) => c.getAttribute('data-drawn')));
      expect(drawn).toHaveLength(charts);
      expect(drawn.every((d) => d === '1')).toBe(true);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(dialogs).toEqual([]);
      mkdirSync(join(root, '.rgate', 'screenshots'), { recursive: true });
      await page.screenshot({ path: join(root, '.rgate', 'screenshots', `${name}.png`), fullPage: true });
      await page.close();
    },
  );
});
