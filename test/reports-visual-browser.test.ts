/**
 * Every kind of HTML page rgate writes (run report with and without a gate and a selection step,
 * history, comparison, closeout), as Chromium draws it (issue #14):
 *
 * - a screenshot compared with the stored one in test/__screenshots__/ (decoded with node's zlib,
 *   test/helpers/png.ts; a pixel differs when a channel moves by more than 32, and at most 0.2% of
 *   the pixels may). Deterministic: fixed viewport and scale, light scheme, UTC, reduced motion,
 *   chart animations off, caret hidden. On a mismatch the actual and a diff image (differences in
 *   magenta) go to .rgate/screenshots/; RGATE_UPDATE_SCREENSHOTS=1 rewrites the stored ones.
 * - the accessibility checks of test/helpers/a11y.ts (contrast, labels, alt text, chart names,
 *   landmark and heading order), since axe-core is not a dependency.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHistory } from '../history/trends.js';
import { renderCloseoutHtml } from '../reports/history/closeout.js';
import { renderSessionHtml } from '../reports/history/compare.js';
import { renderHistoryHtml } from '../reports/history/trends.js';
import { renderHtml } from '../reports/run/html.js';
import type { Report } from '../src/documents/index.js';
import { A11Y_CHECKS } from './helpers/a11y.js';
import { axeViolations } from './helpers/axe.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { expectScreenshot, SCREENSHOT_CONTEXT } from './helpers/screenshot.js';
import { hostileCloseout, hostileSession } from './compare-helpers.js';
import { sampleFindingsReport, sampleReport } from './fixtures/sample-report.js';
import { artifacts, mean, rate } from './history-helpers.js';
import { SETTINGS } from './helpers/run-rows.js';
import { upgradeReport } from '../harness/failure-reasons.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-visual-'));

/** A BM25-style suite: no gate policy, no selection step (what `cacm` and `cranfield` are). */
function measuresOnly(): Report {
  const r = sampleReport('pass');
  r.suite = 'cacm';
  r.gate = {
    gate_id: 'measures-only',
    gate_version: '-',
    verdict: 'PASS',
    rules: [],
    reasons: ['no gate policy for this suite: 9 measures reported, nothing enforced'],
    checklist: [],
  };
  r.judging = {
    top1_useful_rule: 'top-1 useful: 50 queries by qrels: grade >= 1 (the relevance level) is useful',
    selection_step: false,
  };
  for (const q of [...r.queries, ...r.failing_queries]) {
    delete q.actual.selection_mode;
    delete q.failure_reasons; // decided again below, as the harness would without a selection step
  }
  return upgradeReport(r);
}

function historyPage(): string {
  const runs = [1, 2, 3, 4, 5].map((i) => ({
    row: {
      run_id: `20261101T02000${i}Z-00000${i}`,
      suite: 'context-load',
      started_at: `2026-11-0${i}T02:00:00Z`,
      artifacts: artifacts(i >= 4 ? 'v2' : 'v1'),
      settings: SETTINGS,
      status: 'complete' as const,
      finished_at: null,
      gate_id: 'g',
      verdict: i === 5 ? ('FAIL' as const) : ('PASS' as const),
      observation_count: 1,
    },
    metrics: [
      rate('top1_useful_rate', i === 5 ? 30 : 40 + i, 50, [0.7, 0.95]),
      mean('ndcg_cut.5', 0.5 + i / 100, 50),
    ],
  }));
  const h = buildHistory('context-load', runs.reverse(), {
    gateRules: [
      { metric: 'top1_useful_rate', op: 'min' },
      { metric: 'ndcg_cut.5', op: 'min' },
    ],
    resetNotes: { v2: 'dropped 3 duplicate queries' },
  });
  return renderHistoryHtml(h);
}

function closeoutPage(): string {
  const c = hostileCloseout();
  c.warnings = ['run cand is its own baseline: every vs-baseline rule compares the run with itself (+0.0%).'];
  return renderCloseoutHtml(c);
}

const PAGES: [string, () => string][] = [
  ['run-fail', () => renderHtml(sampleReport('fail'))],
  ['run-measures-only', () => renderHtml(measuresOnly())],
  ['run-findings', () => renderHtml(sampleFindingsReport())],
  ['history', historyPage],
  ['compare', () => renderSessionHtml(hostileSession())],
  ['closeout', closeoutPage],
];

let browser: Browser | undefined;
let context: BrowserContext;
beforeAll(async () => {
  browser = await launchChromium();
  if (!browser) return;
  context = await browser.newContext(SCREENSHOT_CONTEXT);
});
afterAll(async () => {
  await browser?.close();
});

describe('HTML pages in chromium: screenshots and accessibility', () => {
  for (const [name, render] of PAGES) {
    it(name, async () => {
      if (!browser) throw new Error(CHROMIUM_MISSING);
      const file = join(dir, `${name}.html`);
      writeFileSync(file, render());
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      expect(errors).toEqual([]);

      expect(await page.evaluate<string[]>(A11Y_CHECKS)).toEqual([]);
      expect(await axeViolations(page), `${name}: axe-core WCAG 2.1 A/AA`).toEqual([]);

      const shot = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
      await page.close();
      expectScreenshot(name, shot);
    });
  }
});
