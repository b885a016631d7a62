/**
 * The HTML report's "Trend over the suite's history" section, end to end on a real SQLite store:
 * the history is cut at the rendered run (later runs never drawn), the section is absent without an
 * earlier run, `rgate report <id> -f html` finds .rgate/history.sqlite, and in Debian's chromium every
 * gate metric's trend canvas draws, a run on another snapshot is marked, and a hostile suite name and
 * run id stay inert text.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyUpToRun } from '../history/trends-up-to.js';
import { renderHtml } from '../reports/run/html.js';
import { trendSection } from '../reports/run/html-trend.js';
import { renderJson } from '../reports/run/json.js';
import type { CliIo } from '../src/cli/command.js';
import { reportCommand } from '../src/cli/commands/report.js';
import { runCli } from '../src/cli/program.js';
import type { Report } from '../src/documents/index.js';
import { SqliteRunStore } from '../src/store/index.js';
import { storeRun } from './history-helpers.js';
import { sampleReport, type Variant } from './fixtures/sample-report.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';

const root = resolve(import.meta.dirname, '..');

const SUITE = 's"><script>window.__pwned = 5</script>';
const HOSTILE_RUN = 'r1"><img src=x onerror="window.__pwned=6"><script>window.__pwned = 7</script>';
const GATE_METRICS = [
  'top1_useful_rate',
  'judged_top1',
  'fallback_determinism',
  'selection_mode_reporting',
  'source_trace_completeness',
];

function run(variant: Variant, runId: string, startedAt: string, configSha?: string): Report {
  const r = sampleReport(variant);
  return {
    ...r,
    suite: SUITE,
    artifacts: configSha ? { ...r.artifacts, config_sha256: configSha } : r.artifacts,
    environment: { ...r.environment, run_id: runId, started_at: startedAt },
  };
}

const r1 = run('pass', HOSTILE_RUN, '2026-02-27T02:00:00.000Z', `sha256:${'d'.repeat(64)}`);
const r2 = run('watch', 'r2-watch', '2026-02-28T02:00:00.000Z');
const r3 = run('fail', 'r3-fail', '2026-03-01T02:00:00.000Z');
const r4 = run('pass', 'r4-later', '2026-03-02T02:00:00.000Z');

/** A project dir as `rgate run` leaves it: history.sqlite with four runs, r3's report.json on disk. */
function project(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'rgate-trend-'));
  const store = new SqliteRunStore(join(cwd, '.rgate', 'history.sqlite'));
  for (const r of [r1, r2, r3, r4]) storeRun(store, r, { startedAt: r.environment.started_at });
  store.close();
  const dir = join(cwd, '.rgate', 'runs', 'r3-fail');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.json'), renderJson(r3));
  return cwd;
}

function historyOf(cwd: string, runId: string) {
  const store = new SqliteRunStore(join(cwd, '.rgate', 'history.sqlite'));
  try {
    return historyUpToRun(store, runId);
  } finally {
    store.close();
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempProject(): string {
  const cwd = project();
  dirs.push(cwd);
  return cwd;
}

describe('history up to a run (real SQLite store)', () => {
  it('ends at the run, never includes later runs, and is undefined for an unknown run', () => {
    const cwd = tempProject();
    const h = historyOf(cwd, 'r3-fail')!;
    expect(h.suite).toBe(SUITE);
    expect(h.runs.map((r) => r.run_id)).toEqual([HOSTILE_RUN, 'r2-watch', 'r3-fail']);
    expect(h.trends.filter((t) => t.gate_metric).map((t) => t.metric)).toEqual(GATE_METRICS);
    // r1 ran on another config hash: r2 is where the snapshot changed
    const top1 = h.trends.find((t) => t.metric === 'top1_useful_rate')!;
    expect(top1.points.map((p) => p.snapshot_changed)).toEqual([false, true, false]);
    expect(historyOf(cwd, HOSTILE_RUN)!.runs.map((r) => r.run_id)).toEqual([HOSTILE_RUN]);
    expect(historyOf(cwd, 'r4-later')!.runs).toHaveLength(4);
    expect(historyOf(cwd, 'no-such-run')).toBeUndefined();
  });
});

describe('the trend section after a --set run', () => {
  it('marks only the --set run as not comparable and names the run the alarms compared with', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'rgate-trend-set-'));
    dirs.push(cwd);
    const a1 = run('pass', 'a1', '2026-02-27T02:00:00.000Z');
    const b = run('pass', 'b-set', '2026-02-27T12:00:00.000Z', `sha256:${'d'.repeat(64)}`);
    const a2 = run('fail', 'a2', '2026-02-28T02:00:00.000Z');
    const store = new SqliteRunStore(join(cwd, '.rgate', 'history.sqlite'));
    for (const r of [a1, b, a2]) storeRun(store, r, { startedAt: r.environment.started_at });
    store.close();
    const section = trendSection(a2, historyOf(cwd, 'a2'))!;
    expect(section.other_runs).toEqual(['b-set']);
    expect(section.compared_with).toBe('a1');
    expect(renderHtml(a2, { history: historyOf(cwd, 'a2')! })).toContain(
      'Regression alarms compare this run with <code>a1</code>, the newest earlier run on the same snapshot and config.',
    );
  });
});

describe('the trend section in the HTML', () => {
  it('is absent without a history, and without an earlier run', () => {
    const cwd = tempProject();
    for (const html of [
      renderHtml(r3),
      renderHtml(r3, { history: undefined }),
      renderHtml(r1, { history: historyOf(cwd, HOSTILE_RUN)! }),
      // a history that only holds runs after this one has nothing earlier to draw
      renderHtml(r1, {
        history: { ...historyOf(cwd, 'r4-later')!, runs: historyOf(cwd, 'r4-later')!.runs.slice(1) },
      }),
    ]) {
      expect(html).not.toContain("Trend over the suite's history");
      expect(html).not.toContain('id="trend-');
      expect(html).toContain('"trend":null');
    }
  });

  it('has one canvas per gate metric, escaped hostile ids, and the client still allowed by hash', () => {
    const cwd = tempProject();
    // the newest history (r4 included) is cut at r3 by the renderer too
    const store = new SqliteRunStore(join(cwd, '.rgate', 'history.sqlite'));
    const latest = historyUpToRun(store, 'r4-later')!;
    store.close();
    const html = renderHtml(r3, { history: latest });
    expect(html).toContain("Trend over the suite's history");
    expect([...html.matchAll(/<canvas id="(trend-\d+)"/g)].map((m) => m[1])).toEqual([
      'trend-0',
      'trend-1',
      'trend-2',
      'trend-3',
      'trend-4',
    ]);
    expect(html).not.toContain('r4-later');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).toContain(
      '<code>r1&quot;&gt;&lt;img src&#x3D;x onerror&#x3D;&quot;window.__pwned&#x3D;6&quot;&gt;',
    );
    const data = html.match(/<script type="application\/json" id="rgate-data">([\s\S]*?)<\/script>/)![1]!;
    expect(data).not.toMatch(/[<>]/);
    const trend = JSON.parse(data).trend as { metric: string; values: number[]; other_snapshot: boolean[] }[];
    expect(trend.map((t) => t.metric)).toEqual(GATE_METRICS);
    expect(trend[0]!.values).toEqual([45 / 50, 41 / 50, 38 / 50]);
    expect(trend[0]!.other_snapshot).toEqual([true, false, false]);
    const client = readFileSync(join(root, 'reports', 'run', 'templates', 'report-client.js'), 'utf8');
    const hash = createHash('sha256').update(client, 'utf8').digest('base64');
    // the CSP sits in an attribute: handlebars writes ' and = as entities
    const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)![1]!;
    expect(csp.replace(/&#x27;/g, "'").replace(/&#x3D;/g, '=')).toContain(`'sha256-${hash}'`);
  });

  it('`rgate report <run-id> -f html` draws the history from .rgate/history.sqlite, up to that run', async () => {
    const cwd = tempProject();
    const io: CliIo = { out: () => {}, err: () => {}, color: false, isTty: false, cwd, env: {} };
    expect(await runCli(['report', 'r3-fail', '-f', 'html', '-o', 'with.html'], io, [reportCommand])).toBe(1);
    const withHistory = readFileSync(join(cwd, 'with.html'), 'utf8');
    expect(withHistory).toContain("Trend over the suite's history");
    expect(withHistory).toContain('<code>r2-watch</code>');
    expect(withHistory).not.toContain('r4-later');
    rmSync(join(cwd, '.rgate', 'history.sqlite'));
    expect(await runCli(['report', 'r3-fail', '-f', 'html', '-o', 'without.html'], io, [reportCommand])).toBe(
      1,
    );
    expect(readFileSync(join(cwd, 'without.html'), 'utf8')).not.toContain("Trend over the suite's history");
    // never creates a store where there was none
    expect(existsSync(join(cwd, '.rgate', 'history.sqlite'))).toBe(false);
  });
});

const MISSING = CHROMIUM_MISSING;

describe('trend charts in chromium', () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws a non-blank trend canvas per gate metric, marks the other-snapshot run, stays inert', async () => {
    if (!browser) throw new Error(MISSING);
    const cwd = tempProject();
    const file = join(cwd, 'trend.html');
    writeFileSync(file, renderHtml(r3, { history: historyOf(cwd, 'r3-fail')! }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

    // browser-side code as a string: the project compiles without the DOM lib
    const canvases = await page.evaluate<{ id: string; width: number; painted: number }[]>(`
      Array.from(document.querySelectorAll('#trend-charts canvas')).map((canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
        return { id: canvas.id, width: canvas.width, painted };
      })`);
    expect(canvases.map((c) => c.id)).toEqual(['trend-0', 'trend-1', 'trend-2', 'trend-3', 'trend-4']);
    for (const c of canvases) {
      expect(c.width, c.id).toBeGreaterThan(100);
      expect(c.painted, `${c.id} drew nothing`).toBeGreaterThan(500);
    }
    const drawn = await page.evaluate<{
      points: number;
      style: unknown;
      dash: unknown;
      threshold: unknown;
    }>(`(() => {
      const c = Chart.getChart('trend-0');
      return { points: c.data.datasets[0].data.length, style: c.data.datasets[0].pointStyle,
        dash: c.data.datasets[1].borderDash, threshold: c.data.datasets[1].data[0] };
    })()`);
    expect(drawn).toEqual({
      points: 3,
      style: ['rectRot', 'circle', 'circle'],
      dash: [6, 4],
      threshold: 0.8,
    });

    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.$$eval('script', (s) => s.length)).toBe(3);
    expect(await page.$$eval('img', (s) => s.length)).toBe(0);
    const runs = await page.$$eval('#trend-runs td:first-child code', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(runs).toEqual([HOSTILE_RUN, 'r2-watch', 'r3-fail']);
    expect(await page.textContent('p.meta code')).toBe(SUITE);

    // the trend section alone (the full page is the e2e suite's report-html-fail.png), kept in the
    // temp project: the unit suite writes nothing into the repository
    await page.locator('#trend-charts').screenshot({ path: join(cwd, 'report-html-trend.png') });
    expect(existsSync(join(cwd, 'report-html-trend.png'))).toBe(true);
    await page.close();
  });
});
