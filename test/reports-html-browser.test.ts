/**
 * The HTML report as a person sees it: Debian's chromium (never a downloaded browser) opens the file,
 * every chart canvas must have drawn, nothing may log an error or touch the network, the planted
 * `<script>`s in query texts and ids stay inert text, and the search box and filters hide rows.
 * A screenshot is saved under .rgate/screenshots/ for a reviewer.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../reports/run/html.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { renderJunit } from '../reports/run/junit.js';
import { HOSTILE, sampleFindingsReport, sampleGateCReport, sampleReport } from './fixtures/sample-report.js';

const root = resolve(import.meta.dirname, '..');

let browser: Browser | undefined;
let page: Page;
const consoleErrors: string[] = [];
const requests: string[] = [];
const dialogs: string[] = [];

const MISSING = CHROMIUM_MISSING;

/** Every test fails (never skips) with the same clear message when chromium is missing. */
function needBrowser(): Browser {
  if (!browser) throw new Error(MISSING);
  return browser;
}

beforeAll(async () => {
  browser = await launchChromium();
  if (!browser) return;
  const dir = mkdtempSync(join(tmpdir(), 'rgate-html-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, renderHtml(sampleReport('fail')));
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
});

describe('HTML report in chromium', () => {
  it('draws every chart canvas (non-blank pixels)', async () => {
    needBrowser();
    // browser-side code as a string: the project compiles without the DOM lib
    const canvases = await page.evaluate<{ id: string; width: number; painted: number }[]>(`
      Array.from(document.querySelectorAll('canvas')).map((canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
        return { id: canvas.id, width: canvas.width, painted };
      })`);
    expect(canvases.map((c) => c.id)).toEqual(['chart-metrics', 'chart-modes', 'chart-latency']);
    for (const c of canvases) {
      expect(c.width, c.id).toBeGreaterThan(100);
      expect(c.painted, `${c.id} drew nothing`).toBeGreaterThan(500);
    }
  });

  it('logs no console errors and makes no network request', () => {
    needBrowser();
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('keeps planted scripts inert and shows them as text', async () => {
    needBrowser();
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    // the page has exactly its three own script elements (data, chart.js, client)
    expect(await page.$$eval('script', (s) => s.length)).toBe(3);
    expect(await page.$$eval('img', (s) => s.length)).toBe(0);
    const cells = await page.$$eval('#queries td.text', (tds) => tds.map((td) => td.textContent));
    expect(cells).toContain(HOSTILE.script);
    expect(cells).toContain(HOSTILE.closeScript);
    expect(cells).toContain(HOSTILE.lineSep);
    const ids = await page.$$eval('#queries td:first-child', (tds) => tds.map((td) => td.textContent));
    expect(ids).toContain(HOSTILE.idAttr);
  });

  it('search box and filters hide rows', async () => {
    needBrowser();
    const visible = () =>
      page.evaluate<number>(`document.querySelectorAll('#queries tbody tr:not([hidden])').length`);
    expect(await visible()).toBe(58);
    await page.fill('#q-search', '</script>');
    expect(await visible()).toBe(3);
    expect(await page.textContent('#q-count')).toBe('3 of 58');
    await page.fill('#q-search', '');
    await page.selectOption('#f-status', 'error');
    expect(await visible()).toBe(1);
    await page.selectOption('#f-status', 'miss');
    await page.selectOption('#f-mode', 'semantic');
    expect(await visible()).toBe(6);
    await page.selectOption('#f-profile', 'large');
    const rows = await page.$$eval('#queries tbody tr:not([hidden])', (rs) =>
      rs.map((r) => [
        r.querySelector('.status')!.textContent,
        r.children[4]!.textContent,
        r.children[3]!.textContent,
      ]),
    );
    expect(rows).toEqual(Array.from({ length: 4 }, () => ['miss', 'semantic', 'large']));
    await page.selectOption('#f-status', '');
    await page.selectOption('#f-mode', '');
    await page.selectOption('#f-profile', '');
  });

  it('the JUnit XML parses as well-formed XML (hostile text included)', async () => {
    needBrowser();
    // and a run interrupted: its error first, its rules skipped
    const cut = sampleReport('fail');
    cut.suite = 'semantic-cut';
    cut.gate.overruled = 'interrupted';
    cut.gate.reasons = ['run interrupted: 16 of 252 <requests> observed', ...cut.gate.reasons];
    const watch = sampleReport('watch');
    watch.suite = 'semantic-watch';
    const xml = renderJunit([sampleReport('fail'), watch, cut]);
    const result = await page.evaluate<{
      error: string | null;
      suites: number;
      failures: number;
      errors: number;
      skipped: number;
      ids: number;
    }>(`(() => {
      const doc = new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml');
      const err = doc.querySelector('parsererror');
      const ids = new Set([...doc.querySelectorAll('testcase')].map((t) => t.getAttribute('classname') + '#' + t.getAttribute('name')));
      return { error: err ? err.textContent : null, suites: doc.querySelectorAll('testsuite').length, failures: doc.querySelectorAll('failure').length, errors: doc.querySelectorAll('error').length, skipped: doc.querySelectorAll('skipped').length, ids: ids.size };
    })()`);
    // 31 testcases (10 + 10 + the run error and 10), each with its own id (three suites, one gate)
    expect(result).toEqual({ error: null, suites: 3, failures: 5, errors: 1, skipped: 10, ids: 31 });
  });

  it('saves a screenshot under .rgate/screenshots/', async () => {
    needBrowser();
    const dir = join(root, '.rgate', 'screenshots');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'report-html-fail.png');
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path, fullPage: true });
    expect(existsSync(path)).toBe(true);
  });
});

describe('Gate C HTML (baseline rules, latency limit line)', () => {
  it('draws its charts without console errors', async () => {
    needBrowser();
    const dir = mkdtempSync(join(tmpdir(), 'rgate-html-c-'));
    const file = join(dir, 'gate-c.html');
    writeFileSync(file, renderHtml(sampleGateCReport()));
    const p = await needBrowser().newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const painted = await p.evaluate<number[]>(`
      Array.from(document.querySelectorAll('canvas')).map((canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return n;
      })`);
    expect(painted).toHaveLength(3);
    for (const n of painted) expect(n).toBeGreaterThan(500);
    expect(errors).toEqual([]);
    expect(await p.textContent('#gate-table')).toContain('recall.10 vs baseline');
    await p.screenshot({
      path: join(root, '.rgate', 'screenshots', 'report-html-gate-c.png'),
      fullPage: true,
    });
    await p.close();
  });
});

describe('contract violations and peer figures (issue 24)', () => {
  it('lists violations by JSON path and the peers’ figures beside rgate’s, hostile ids as text', async () => {
    const b = needBrowser();
    const dir = mkdtempSync(join(tmpdir(), 'rgate-html-findings-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(sampleFindingsReport()));
    const p = await b.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await p.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    expect(errors).toEqual([]);
    expect(await p.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await p.$$eval('script', (s) => s.length)).toBe(3);

    expect(await p.textContent('#violations-invalid')).toContain('96/290 (33.1%)');
    // each path once (a row group spanning its messages), the most requested path first
    const rows = await p.$$eval('#violation-rules tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')),
    );
    expect(rows.map((r) => r.length)).toEqual([5, 4, 5]);
    expect(rows[0]!.slice(0, 4)).toEqual([
      '/files/*/score_breakdown/combined_score',
      'is required',
      '96',
      '32',
    ]);
    expect(rows[1]!.slice(0, 3)).toEqual(['must be number', '3', '1']);
    expect(rows[1]![3]).toBe(HOSTILE.idAttr);
    expect(rows[2]![0]).toBe('/ranking_contract_version');
    expect(await p.getAttribute('#violation-rules tbody tr:first-child th', 'rowspan')).toBe('2');
    expect(rows[0]![4]).toContain(`${HOSTILE.idAttr} …`);

    const peers = await p.$$eval('#peer-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].slice(0, 5).map((c) => c.textContent ?? '')),
    );
    expect(peers[0]).toEqual([
      'cortex Phase 2 harness',
      'cortex_phase2.median_ndcg_5',
      '0.495506',
      'ndcg_cut.5',
      '0.4123',
    ]);
    expect(peers[1]!.slice(0, 4)).toEqual([
      'memory-cli evaluate',
      'memory_cli_evaluate.top1_useful_rate',
      '40/58 (69.0%)',
      'top1_useful_rate',
    ]);
    // the per-query figures open on demand and keep a hostile id as text
    await p.click('#peer-table tbody tr:first-child details:last-of-type summary');
    expect(await p.textContent('#peer-table tbody tr:first-child details:last-of-type ul')).toContain(
      `${HOSTILE.idAttr}: 0.31546`,
    );
    await p.close();
  });
});
