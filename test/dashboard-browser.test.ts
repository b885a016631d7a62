/**
 * The dashboard's pages in Chromium, served as `rgate server` serves them: from a node:http server
 * on 127.0.0.1 with the server's Content-Security-Policy header and the assets of dashboardAssets
 * (the real server is built elsewhere; this one only maps paths to rendered pages).
 *
 * - Every page of a real project: no page error, charts drawn by the /assets/ scripts under
 *   `script-src 'self'`, the accessibility checks and axe-core WCAG 2.1 A/AA, and a screenshot
 *   compared with test/__screenshots__/dashboard-*.png (RGATE_UPDATE_SCREENSHOTS=1 rewrites them;
 *   see reports-visual-browser.test.ts for the comparison rule).
 * - Every page of a hostile project (ids, suite, branch, commit, query text, system name are
 *   script, attribute and URL payloads): no dialog ever opens, no element carries an injected
 *   attribute or a script of its own, and every link resolves to the same origin.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, dashboardAssets, dashboardLinks } from '../reports/dashboard/index.js';
import { A11Y_CHECKS } from './helpers/a11y.js';
import { axeViolations } from './helpers/axe.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { probePayloads } from './helpers/payload-probe.js';
import { expectScreenshot, SCREENSHOT_CONTEXT } from './helpers/screenshot.js';
import {
  filledProjectViews,
  fillProject,
  hostileProjectPages,
  projectPages,
  projectStore,
  type Project,
} from './dashboard-helpers.js';

const links = dashboardLinks();

const pages = new Map<string, string>();

/** Pages by their path (as the browser asks for it), assets under /assets/; anything else 404. */
function serve(): Promise<Server> {
  const assets = dashboardAssets();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    if (path.startsWith('/assets/')) {
      const a = assets[decodeURIComponent(path.slice('/assets/'.length))];
      if (a) {
        res.writeHead(200, { 'content-type': a.type });
        res.end('path' in a ? readFileSync(a.path) : a.content);
        return;
      }
    }
    const html = pages.get(url) ?? pages.get(path);
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DASHBOARD_CSP,
    });
    res.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let server: Server;
let origin: string;
let browser: Browser | undefined;
let context: BrowserContext;
let p: Project;
let hostile: Project;
/** [screenshot name, path] of the real project's pages */
let realPages: [string, string][] = [];
let hostilePages: string[] = [];

beforeAll(async () => {
  p = projectStore();
  hostile = projectStore();
  await fillProject(p);
  const real = await projectPages(p.store, 'search', links, {
    ...filledProjectViews(),
    projects: [
      {
        slug: 'search',
        name: 'Search',
        run_count: 8,
        newest: {
          run_id: 'ctx-2',
          suite: 'context-load',
          started_at: '2026-11-21T01:00:00Z',
          verdict: 'PASS',
        },
      },
      { slug: 'memory', name: 'Agent memory', run_count: 0, newest: null },
    ],
    // uploads name their commit and branch: nightly runs alternate between main and a feature branch
    edit: (r) => {
      const n = Number(/(\d+)$/.exec(r.run_id)?.[1] ?? 0);
      r.branch = n % 2 ? 'main' : 'feat/rerank';
      r.commit = `${n}f3a9c2e`.padEnd(40, 'b');
    },
  });
  const names = [
    'projects',
    'project',
    'trend',
    'runs',
    'run',
    'diff',
    'compare',
    'compare-runs',
    'vs-base',
    'label',
  ];
  realPages = [...real.keys()].map((path, i) => [`dashboard-${names[i]}`, path]);
  for (const [path, html] of real) pages.set(path, html);

  const { pages: bad } = await hostileProjectPages(hostile, links);
  // the projects index of the hostile project lives under its own path
  const [indexPath, indexHtml] = [...bad.entries()][0]!;
  bad.delete(indexPath);
  bad.set('/hostile-index', indexHtml);
  hostilePages = [...bad.keys()];
  for (const [path, html] of bad) pages.set(path, html);

  server = await serve();
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  if (!browser) return;
  context = await browser.newContext(SCREENSHOT_CONTEXT);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
  p?.cleanup();
  hostile?.cleanup();
});

async function open(path: string): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const res = await page.goto(origin + path, { waitUntil: 'load' });
  expect(res?.status(), path).toBe(200);
  return { page, errors, dialogs };
}

describe('dashboard pages in chromium: screenshots and accessibility', () => {
  it('serves every page of the project', () => {
    expect(realPages.map(([n]) => n)).toEqual([
      'dashboard-projects',
      'dashboard-project',
      'dashboard-trend',
      'dashboard-runs',
      'dashboard-run',
      'dashboard-diff',
      'dashboard-compare',
      'dashboard-compare-runs',
      'dashboard-vs-base',
      'dashboard-label',
    ]);
  });

  for (let i = 0; i < 10; i++) {
    it(`page ${i + 1} of 10`, async () => {
      if (!browser) throw new Error(CHROMIUM_MISSING);
      const [name, path] = realPages[i]!;
      const { page, errors } = await open(path);
      expect(errors, name).toEqual([]);
      // every chart drawn: its script came from /assets/ under script-src 'self'
      const canvases = await page.$$eval('canvas', (cs) =>
        cs.map((c) => c.getAttribute('data-drawn') ?? 'drawn-by-report'),
      );
      if (
        ['dashboard-trend', 'dashboard-compare', 'dashboard-compare-runs', 'dashboard-vs-base'].includes(name)
      ) {
        expect(canvases.length, name).toBeGreaterThan(0);
        expect(
          canvases.every((c) => c === '1'),
          name,
        ).toBe(true);
      }
      if (name === 'dashboard-label') {
        // the grading client runs: it marks the first item as current
        await page.keyboard.press('j');
        expect(await page.$$('article.item'), name).not.toHaveLength(0);
      }
      expect(await page.evaluate<string[]>(A11Y_CHECKS), name).toEqual([]);
      expect(await axeViolations(page), `${name}: axe-core WCAG 2.1 A/AA`).toEqual([]);
      // the long pages (a real run's report, diff, comparison and queue) as their first screen: the
      // frame is what is new here, and their bodies have screenshots of their own
      const full = ['dashboard-projects', 'dashboard-project', 'dashboard-trend', 'dashboard-runs'].includes(
        name,
      );
      const shot = await page.screenshot({ fullPage: full, animations: 'disabled', caret: 'hide' });
      await page.close();
      expectScreenshot(name, shot);
    });
  }
});

describe('hostile uploads in chromium', () => {
  it('run no script, carry no injected attribute, and link only to this origin', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    expect(hostilePages).toHaveLength(8);
    const followed = new Set<string>();
    for (const path of hostilePages) {
      const { page, errors, dialogs } = await open(path);
      const found = await probePayloads(page);
      expect(dialogs, path).toEqual([]);
      expect(found.injected, path).toEqual([]);
      for (const s of found.scripts) expect(new URL(s).pathname, path).toMatch(/^\/assets\/[a-z.-]+\.js$/);
      for (const h of found.hrefs) expect(new URL(h).origin, `${path}: ${h}`).toBe(origin);
      // the page's own scripts ran without error (a CSP refusal would be a console error)
      expect(errors, path).toEqual([]);
      // and follow every link not followed yet: each stays on this origin (404s are fine: not every
      // page is served here)
      for (const h of found.hrefs.filter((x) => !followed.has(x)).slice(0, 12)) {
        followed.add(h);
        const res = await page.goto(h);
        expect(new URL(page.url()).origin, h).toBe(origin);
        expect(res === null || res.status() === 200 || res.status() === 404, h).toBe(true);
      }
      expect(dialogs, path).toEqual([]);
      await page.close();
    }
  }, 120_000);
});
