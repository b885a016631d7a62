/**
 * The grading page as a reviewer uses it: Debian's chromium opens the queue page `rgate label queue`
 * wrote for a real comparison, the grades are given with the keyboard only, the page saves them as a
 * JSONL download, and `rgate label merge` puts that file into the set's qrels.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './helpers/axe.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { REPO } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';
import { makeMiniProject, miniSession, rgate } from './label-helpers.js';

const t = tempDir('rgate-label-browser-');
let browser: Browser | undefined;
let server: Server | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  t.cleanup();
});

/**
 * The queue page over HTTP from 127.0.0.1, as a reviewer's static host or `rgate server` serves it.
 * Opened as a file:// URL, Chromium gave the reloaded page an empty localStorage once in CI while a
 * second tab still read the three grades: file:// origins are opaque, and their storage is not
 * what a reviewer relies on.
 */
async function serveDir(dir: string): Promise<string> {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path !== '/queue.html') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(readFileSync(join(dir, 'queue.html')));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface QueueLine {
  query_id: string;
  doc_id: string;
}

describe('label queue page in chromium', () => {
  it('grades with the keyboard only, saves a JSONL download, and the merge puts it in the qrels', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    makeMiniProject(t.dir);
    const session = await miniSession(t.dir);
    const q = await rgate(['label', 'queue', session, '--out', 'review'], t.dir);
    expect(q.code, q.stderr).toBe(0);
    const queue = readFileSync(join(t.dir, 'review', 'queue.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QueueLine);
    expect(queue.length).toBeGreaterThan(4);

    const origin = await serveDir(join(t.dir, 'review'));
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => {
      if (r.url() !== `${origin}/queue.html` && !r.url().startsWith('blob:'))
        problems.push(`request ${r.url()}`);
    });
    await page.goto(`${origin}/queue.html`);
    expect(await axeViolations(page), 'axe-core WCAG 2.1 A/AA').toEqual([]);

    // the first item has the focus, visibly (an outline), and the help names the keys
    const focused = () => page.evaluate<string | null>("document.activeElement?.getAttribute('data-index')");
    expect(await focused()).toBe('0');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).toBe('solid');
    await expect(page.locator('#help').innerText()).resolves.toContain('next document');

    // grade 2, 0 (each moves on), skip one with j, go back with k, regrade with ArrowDown/ArrowUp
    await page.keyboard.press('2'); // item 0 -> 2, focus 1
    await page.keyboard.press('0'); // item 1 -> 0, focus 2
    await page.keyboard.press('j'); // focus 3
    await page.keyboard.press('3'); // item 3 -> 3, focus 4
    await page.keyboard.press('k'); // focus 3
    await page.keyboard.press('k'); // focus 2
    await page.keyboard.press('ArrowUp'); // focus 1
    await page.keyboard.press('1'); // item 1 -> 1 (regraded), focus 2
    await page.keyboard.press('ArrowDown'); // focus 3
    await page.keyboard.press('ArrowDown'); // focus 4
    await page.keyboard.press('2'); // item 4 -> 2, focus 5
    await page.keyboard.press('ArrowUp'); // focus 4
    await page.keyboard.press('x'); // item 4 cleared
    expect(await focused()).toBe('4');
    await expect(page.locator('#progress').innerText()).resolves.toBe(`3 of ${queue.length} graded`);

    // the page wrote each grade to localStorage as it was given (one key: this queue's)
    const stored = (): Promise<number[]> =>
      page.evaluate('Object.values(localStorage).map((v) => Object.keys(JSON.parse(v)).length)');
    expect(await stored()).toEqual([3]);

    // Chromium hands a page's localStorage writes to the browser process asynchronously, and a
    // reload may start a new renderer before they arrive (CI saw 0 of 3 once). A second tab reads
    // the browser's copy: once it shows the three grades they are stored, and the reload is fair.
    const tab = await context.newPage();
    await tab.goto(page.url());
    await expect
      .poll(() => tab.evaluate('Object.values(localStorage).map((v) => Object.keys(JSON.parse(v)).length)'))
      .toEqual([3]);
    await tab.close();

    // a reload keeps the grades (localStorage) and resumes at the first ungraded document
    await page.reload();
    expect(
      await page.locator('#progress').innerText(),
      `after the reload (graded pairs in localStorage: ${JSON.stringify(await stored())})`,
    ).toBe(`3 of ${queue.length} graded`);
    expect(await focused()).toBe('2');
    mkdirSync(join(REPO, '.rgate', 'screenshots'), { recursive: true });
    await page.screenshot({ path: join(REPO, '.rgate', 'screenshots', 'label-queue.png') });
    await expect(page.locator('#item-3 .grade').innerText()).resolves.toBe('grade 3 highly relevant');

    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('s')]);
    expect(download.suggestedFilename()).toBe(`judgments-${session}.jsonl`);
    mkdirSync(join(t.dir, 'graded'), { recursive: true });
    const file = join(t.dir, 'graded', 'judgments.jsonl');
    await download.saveAs(file);
    await context.close();
    expect(problems).toEqual([]);

    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const want = [
      [0, 2],
      [1, 1],
      [3, 3],
    ] as const;
    expect(lines.map((l) => ({ ...l, date: 'D' }))).toEqual(
      want.map(([i, grade]) => ({
        query_id: queue[i]!.query_id,
        doc_id: queue[i]!.doc_id,
        grade,
        date: 'D',
        queue: session,
      })),
    );
    const date = lines[0]!['date'] as string;
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // the download goes straight into the (frozen) set
    const m = await rgate(
      [
        'label',
        'merge',
        'mini',
        file,
        '--judge',
        'ana',
        '--version',
        'v2',
        '--reset-note',
        '3 pooled judgments',
      ],
      t.dir,
    );
    expect(m.code, m.stderr).toBe(0);
    const queries = readFileSync(join(t.dir, 'fixtures', 'mini', 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { query_id: string; qrels: Record<string, number>; judged_by?: unknown });
    for (const [i, grade] of want) {
      const rec = queries.find((r) => r.query_id === queue[i]!.query_id)!;
      expect(rec.qrels[queue[i]!.doc_id]).toBe(grade);
      expect((rec.judged_by as Record<string, unknown>)[queue[i]!.doc_id]).toEqual({ judge: 'ana', date });
    }
    const v = await rgate(['verify', 'mini'], t.dir);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });
});
