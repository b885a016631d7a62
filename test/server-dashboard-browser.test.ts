/**
 * The dashboard through the real `rgate server` (in-process, 127.0.0.1 port 0, SQLite data dir): a
 * project gets real runs made and uploaded with the CLI (beir-mini on the builtin engine, commits and
 * branches from the CI variables), then Chromium opens every page through the server: status 200,
 * the dashboard's CSP header, no CSP refusal or page error, charts drawn, and the links between pages
 * followed by clicking (the accessibility checks and axe-core run on every kind of page in
 * dashboard-browser.test.ts, from the same renderers). Then what is refused: a private
 * project without a token, unknown runs and suites, a bad `limit`, an unknown asset. Last, the pages
 * over PostgreSQL (without a browser: the same pages, another store).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, dashboardLinks } from '../reports/dashboard/index.js';
import { fixtureLibrary } from '../server/index.js';
import { runCli } from '../src/cli/program.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { probePayloads } from './helpers/payload-probe.js';
import { captureIo } from './helpers/cli-io.js';
import { describeOnPostgres } from './helpers/postgres.js';
import {
  ADMIN,
  call,
  createProject,
  localProject,
  startPgServer,
  startServer,
  withRunId,
  type RunningServer,
} from './helpers/server.js';

const links = dashboardLinks();
const data = mkdtempSync(join(tmpdir(), 'rgate-srv-dash-'));
let project: Awaited<ReturnType<typeof localProject>>;
let srv: RunningServer;
let browser: Browser | undefined;
let context: BrowserContext;
let suite = '';
/** oldest first: [run id, branch, commit] */
const runs: [string, string, string][] = [];
let printedUrl = '';
let session = '';
let readToken = '';
/** a run on a feature branch made after the last main run: its base run is that main run */
let branchRun = '';

async function cli(args: string[], env: Record<string, string>) {
  const io = captureIo(project.dir, env);
  const code = await runCli(args, io);
  const out = io.stdout.join('\n');
  if (code !== 0) throw new Error(`rgate ${args.join(' ')}: exit ${code}\n${io.stderr.join('\n')}`);
  return out;
}

const commit = (c: string) => c.repeat(40).slice(0, 40);

beforeAll(async () => {
  project = await localProject('rgate-srv-dash-proj-');
  srv = await startServer(join(data, 'server'), {
    rateLimit: 0,
    loadSet: fixtureLibrary(join(project.dir, 'fixtures')).loadSet,
  });
  const token = await createProject(srv.base, 'search', true);
  const secretToken = await createProject(srv.base, 'secret', false);
  const env = (branch: string, sha: string, tok = token) => ({
    RGATE_SERVER_TOKEN: tok,
    GITHUB_REF_NAME: branch,
    GITHUB_SHA: sha,
  });
  // the run localProject made, then two more with `rgate run --upload`, on two branches
  await cli(['upload', 'latest', '--server', srv.base, '--project', 'search'], env('main', commit('a1')));
  runs.push([project.runId, 'main', commit('a1')]);
  for (const [branch, sha] of [
    ['feat/rerank', commit('b2')],
    ['main', commit('c3')],
  ] as const) {
    const out = await cli(['run', '--upload', srv.base, '--project', 'search'], env(branch, sha));
    const m = /uploaded run (\S+): (\S+)/.exec(out);
    if (!m) throw new Error(`no URL printed: ${out}`);
    runs.push([m[1]!, branch, sha]);
    printedUrl = m[2]!;
  }
  const late = await cli(
    ['run', '--upload', srv.base, '--project', 'search'],
    env('feat/late', commit('e5')),
  );
  branchRun = /uploaded run (\S+):/.exec(late)![1]!;
  await cli(
    ['upload', 'latest', '--server', srv.base, '--project', 'secret'],
    env('main', commit('d4'), secretToken),
  );
  const local = new SqliteRunStore(join(project.dir, '.rgate', 'history.sqlite'));
  suite = local.getRun(project.runId)!.suite;

  // a comparison session: made by `rgate compare`, kept by the project's store (the upload API takes
  // runs, not sessions, so it is written to the server's store as an operator's import would)
  await cli(['compare', suite, '--set', 'bm25.k1=0.9', '--set', 'bm25.k1=1.5', '--replays', '1'], {});
  const row = local.listCompareSessions({ suite, limit: 1 })[0]!;
  session = row.session_id;
  const server = (await srv.stores.projectStore('search'))!;
  await server.saveCompareSession(row, local.getCompareSession(session));
  local.close();

  const read = await call(srv.base, 'POST', '/api/projects/secret/tokens', {
    token: ADMIN,
    body: { kind: 'read' },
  });
  readToken = read.body.token as string;

  browser = await launchChromium();
  if (!browser) return;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
  project?.cleanup();
  rmSync(data, { recursive: true, force: true });
});

async function open(path: string): Promise<{ page: Page; errors: string[]; csp: string | undefined }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  // a CSP refusal is reported on the console as an error
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const res = await page.goto(srv.base + path, { waitUntil: 'load' });
  expect(res?.status(), path).toBe(200);
  return { page, errors, csp: (await res!.allHeaders())['content-security-policy'] };
}

describe('the dashboard through rgate server, in chromium', () => {
  it('rgate run --upload printed the run page URL, and it is the dashboard run page', async () => {
    const [last] = runs.slice(-1);
    expect(printedUrl).toBe(srv.base + links.run('search', last![0]));
    const r = await call(srv.base, 'GET', new URL(printedUrl).pathname);
    expect(r.status).toBe(200);
    expect(r.text).toContain(links.asset('dashboard.css'));
    expect(r.text).toContain(last![0]);
  });

  it('serves every page: 200, the CSP header, no CSP refusal or page error, charts drawn', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const [first, second, third] = runs.map((r) => r[0]);
    const pages: [string, string][] = [
      ['projects', links.projects()],
      ['project', links.project('search')],
      ['trend', links.suite('search', suite)],
      ['runs', links.runs('search')],
      ['runs filtered', links.runs('search', { branch: 'main', limit: 1 })],
      ['run', links.run('search', third!)],
      ['diff', links.diff('search', first!, second!)],
      ['compare', links.compare('search', session)],
      ['compare runs', links.compareRuns('search', [third!, first!])],
      // a feature branch's run against the newest main run before it
      ['vs base', links.vsBase('search', branchRun)],
      ['label', links.label('search', suite)],
    ];
    for (const [name, path] of pages) {
      const { page, errors, csp } = await open(path);
      expect(csp, name).toBe(DASHBOARD_CSP);
      expect(errors, name).toEqual([]);
      const scripts = await page.$$eval('script[src]', (s) => s.map((e) => e.getAttribute('src')));
      for (const s of scripts) expect(s, name).toMatch(/^\/assets\/[a-z.-]+\.js$/);
      if (['trend', 'compare', 'compare runs', 'vs base'].includes(name)) {
        const drawn = await page.$$eval('canvas', (cs) => cs.map((c) => c.getAttribute('data-drawn')));
        expect(drawn.length, name).toBeGreaterThan(0);
        expect(
          drawn.every((d) => d === '1'),
          name,
        ).toBe(true);
      }
      const body = await page.textContent('body');
      if (name === 'projects') {
        expect(body).toContain('search');
        expect(body, 'a private project is not listed without its token').not.toContain('secret');
      }
      if (name === 'trend') for (const [, branch] of runs) expect(body).toContain(branch);
      if (name === 'runs filtered') {
        expect(await page.$$('tbody tr')).toHaveLength(1);
        expect(body).toContain(runs[2]![0]);
      }
      if (name === 'vs base') expect(body).toContain(`Run ${branchRun} against base run ${third}`);
      // the oldest run is the reference, whatever the order named; each links to its page
      if (name === 'compare runs') {
        expect(body).toContain(`${first} vs ${third}`);
        for (const id of [first!, third!])
          expect(await page.$$(`a[href="${links.run('search', id)}"]`), id).not.toHaveLength(0);
      }
      // the queue is built from the fixture set the server was given (its texts and qrels)
      if (name === 'label') expect(await page.$$('article.item'), name).not.toHaveLength(0);
      await page.close();
    }
  }, 180_000);

  it('links between pages work: project -> suite trend -> run page, trend -> diff', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const { page, errors } = await open(links.project('search'));
    const go = async (href: string) => {
      await Promise.all([page.waitForURL(srv.base + href), page.click(`a[href="${href}"]`)]);
      expect(errors, href).toEqual([]);
    };
    await go(links.suite('search', suite));
    expect(await page.textContent('h1')).toContain(suite);
    const runHref = links.run('search', runs[2]![0]);
    await go(runHref);
    expect(await page.textContent('body')).toContain(runs[2]![0]);
    await page.goBack();
    // the trend's runs table links each complete run to a diff with the one before it
    const diffHref = links.diff('search', runs[1]![0], runs[2]![0]);
    await go(diffHref);
    expect(await page.textContent('h1')).toMatch(/diff|changed/i);
    await page.close();
  }, 60_000);

  it('runs ticked in the runs list open side by side; each pair of them links its per-query diff', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const { page, errors } = await open(links.runs('search'));
    for (const [id] of [runs[0]!, runs[2]!]) await page.check(`input[name="run"][value="${id}"]`);
    await Promise.all([
      page.waitForURL(/\/compare-runs\?/),
      page.click('button:has-text("Compare the ticked runs")'),
    ]);
    expect(errors).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/p/search/compare-runs');
    const diffHref = links.diff('search', runs[0]![0], runs[2]![0]);
    expect(await page.$$(`a[href="${diffHref}"]`)).not.toHaveLength(0);
    await Promise.all([page.waitForURL(srv.base + diffHref), page.click(`a[href="${diffHref}"]`)]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('hostile uploads through the server, in chromium', () => {
  it('a suite, branch and commit that are payloads, and a payload in a URL: no dialog, no injected attribute, links stay here', async () => {
    if (!browser) throw new Error(CHROMIUM_MISSING);
    const script = '<script>alert(1)</script>';
    const attribute = '" onmouseover="alert(1)" x="';
    const doc = withRunId(project.upload, 'hostile-1');
    doc.meta.suite = script + attribute;
    (doc.result.report as { suite: string }).suite = script + attribute;
    doc.meta.git = { branch: attribute + script, commit: 'javascript:alert(1)' };
    const token = await createProject(srv.base, 'hostile', true);
    const up = await call(srv.base, 'POST', '/api/projects/hostile/runs', { token, body: doc });
    expect(up.status, up.text).toBe(201);
    const paths = [
      links.project('hostile'),
      links.suite('hostile', doc.meta.suite),
      links.runs('hostile', { branch: attribute + script }),
      links.run('hostile', 'hostile-1'),
      links.label('hostile', doc.meta.suite),
    ];
    const missing = [links.run('hostile', script), links.suite('hostile', attribute)];
    for (const path of [...paths, ...missing]) {
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const res = await page.goto(srv.base + path, { waitUntil: 'load' });
      expect(res?.status(), path).toBe(missing.includes(path) ? 404 : 200);
      const found = await probePayloads(page);
      expect(dialogs, path).toEqual([]);
      expect(found.injected, path).toEqual([]);
      for (const h of [...found.hrefs, ...found.scripts])
        expect(new URL(h).origin, `${path}: ${h}`).toBe(srv.base);
      await page.close();
    }
  }, 60_000);
});

describe('what the dashboard refuses', () => {
  it('a private project: 404 without a token (as a missing one), 403 with a wrong one, its pages with a read token', async () => {
    for (const path of [links.project('secret'), links.suite('secret', suite), links.runs('secret')]) {
      const none = await call(srv.base, 'GET', path);
      expect([none.status, none.headers.get('content-security-policy')], path).toEqual([404, DASHBOARD_CSP]);
      expect(none.text).toContain(
        'no project &quot;secret&quot; readable without a token (a private project needs its read token',
      );
      expect((await call(srv.base, 'GET', path, { token: 'rgate_rd_wrong' })).status, path).toBe(403);
      expect((await call(srv.base, 'GET', path, { token: readToken })).status, path).toBe(200);
    }
    // the projects index lists it to a holder of its token
    expect((await call(srv.base, 'GET', '/', { token: readToken })).text).toContain(links.project('secret'));
    expect((await call(srv.base, 'GET', '/')).text).not.toContain(links.project('secret'));
  });

  it('404 for an unknown project, run, suite, session or diff side; 400 for a bad limit; unknown asset 404', async () => {
    const notFound = [
      links.project('nope'),
      links.run('search', 'no-such-run'),
      links.suite('search', 'no-such-suite'),
      links.compare('search', 'no-such-session'),
      links.diff('search', runs[0]![0], 'no-such-run'),
      links.label('search', 'no-such-suite'),
      links.runs('search', { before: 'no-such-run' }),
    ];
    for (const path of notFound) {
      const r = await call(srv.base, 'GET', path);
      expect([r.status, r.headers.get('content-security-policy')], path).toEqual([404, DASHBOARD_CSP]);
      expect(r.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
    expect((await call(srv.base, 'GET', links.run('search', 'no-such-run'))).text).toContain(
      'no run no-such-run in project &quot;search&quot;',
    );
    for (const q of ['limit=abc', 'limit=0', 'limit=1001', 'limit=-1']) {
      const r = await call(srv.base, 'GET', `${links.suite('search', suite)}?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.text, q).toContain('limit');
    }
    expect((await call(srv.base, 'GET', `${links.runs('search')}?limit=501`)).status).toBe(400);
    // runs compared: one run, or runs of two projects' suites, are refused with the reason
    const one = await call(srv.base, 'GET', links.compareRuns('search', [runs[0]![0]]));
    expect([one.status, one.text.includes('name from 2 to 8')]).toEqual([400, true]);
    const unknown = await call(srv.base, 'GET', links.compareRuns('search', [runs[0]![0], 'no-such-run']));
    expect(unknown.status).toBe(404);
    expect((await call(srv.base, 'GET', links.asset('nope.js'))).status).toBe(404);
    expect((await call(srv.base, 'GET', '/assets/..%2Fpackage.json')).status).toBe(404);
    const chart = await call(srv.base, 'GET', links.asset('chart.umd.js'));
    expect([chart.status, chart.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
  });

  it('without --fixtures the label queue page names the command that builds it locally', async () => {
    const bare = await startServer(join(data, 'server'), { rateLimit: 0 });
    try {
      const r = await call(bare.base, 'GET', links.label('search', suite));
      expect(r.status).toBe(200);
      expect(r.text).toContain('rgate label queue');
      expect(r.text).not.toContain('<article class="item"');
    } finally {
      await bare.stop();
    }
  });

  it('rgate server --fixtures / --base-path: a wrong value is a one-line usage error (exit 2), nothing started', async () => {
    const io = captureIo(project.dir, {});
    expect(await runCli(['server', '--fixtures', 'no-such-folder', '--port', '0'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(
      /^rgate: error: --fixtures no-such-folder: no such folder\n {2}hint: /,
    );
    const empty = captureIo(project.dir, {});
    expect(await runCli(['server', '--fixtures', '.rgate', '--port', '0'], empty)).toBe(2);
    expect(empty.stderr.join('\n')).toContain('holds no fixture set');
    const base = captureIo(project.dir, {});
    expect(await runCli(['server', '--base-path', 'rgate/', '--port', '0'], base)).toBe(2);
    expect(base.stderr.join('\n')).toContain('dashboard base path "rgate/"');
  });

  it('a server mounted under /rgate links every page under it', async () => {
    const mounted = await startServer(join(data, 'server'), { rateLimit: 0, basePath: '/rgate' });
    try {
      const r = await call(mounted.base, 'GET', links.project('search'));
      expect(r.status).toBe(200);
      const hrefs = [...r.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
      expect(hrefs.length).toBeGreaterThan(3);
      for (const h of hrefs) expect(h).toMatch(/^\/rgate\//);
    } finally {
      await mounted.stop();
    }
  });
});

describeOnPostgres('the pages over PostgreSQL', () => {
  it('an uploaded run: project, trend, runs and run pages answer 200 with the CSP', async () => {
    const { cluster, srv: pgSrv, token } = await startPgServer('search', true);
    try {
      for (const id of ['pg-run-1', 'pg-run-2']) {
        const up = await call(pgSrv.base, 'POST', '/api/projects/search/runs', {
          token,
          body: withRunId(project.upload, id),
        });
        expect(up.status, up.text).toBe(201);
      }
      for (const path of [
        links.projects(),
        links.project('search'),
        links.suite('search', suite),
        links.runs('search'),
        links.run('search', 'pg-run-2'),
        links.diff('search', 'pg-run-1', 'pg-run-2'),
      ]) {
        const r = await call(pgSrv.base, 'GET', path);
        expect([r.status, r.headers.get('content-security-policy')], path).toEqual([200, DASHBOARD_CSP]);
      }
      expect((await call(pgSrv.base, 'GET', links.run('search', 'pg-run-9'))).status).toBe(404);
    } finally {
      await pgSrv.stop();
      await cluster.stop();
    }
  }, 120_000);
});
