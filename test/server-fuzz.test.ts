/**
 * Every route of `rgate server` with hostile URL segments, query strings and bodies, on both stores:
 * no answer is a 500 (the docs promise a status for every mistake), a NUL byte anywhere in a URL and a
 * repeated query parameter are a 400. The routes are read from the server itself (its route tree), so
 * a route added later is fuzzed without touching this file. Requests go out byte for byte (node:http,
 * not fetch, which would normalise the path).
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunUpload } from '../src/documents/index.js';
import { postgresUnavailable, startPgCluster, type PgCluster } from './helpers/postgres.js';
import {
  ADMIN,
  call,
  createProject,
  localProject,
  startServer,
  withRunId,
  type RunningServer,
} from './helpers/server.js';

let project: Awaited<ReturnType<typeof localProject>>;
const pgSkip = postgresUnavailable();
let cluster: PgCluster | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  project = await localProject('rgate-srv-fuzz-');
  if (!pgSkip) cluster = await startPgCluster();
});
afterAll(async () => {
  project.cleanup();
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Answer {
  status: number;
  text: string;
}

/** One request exactly as written: the path is not normalised or re-encoded. */
function raw(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

interface Route {
  method: string;
  path: string;
}

/**
 * The server's routes from fastify's route tree (`printRoutes({ commonPrefix: false })`): each line a
 * path segment under its parent's, indented four columns a level, its methods in brackets.
 */
function routesOf(srv: RunningServer): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of srv.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)[└├]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('').replace(/\/\//g, '/');
    for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '' && x !== 'HEAD')) {
      routes.push({ method, path: path === '/' ? '/' : path.replace(/^([^/])/, '/$1') });
    }
  }
  return routes;
}

/** URL segments (as written on the wire) meant to break a handler, a store's query or a renderer. */
const SEGMENTS = [
  '%00',
  'a%00b',
  '%C0%80',
  '%FF',
  '%',
  '%zz',
  '%ED%A0%80',
  '%E2%80%AE',
  '%F0%9F%98%80',
  "'",
  '%22%3Cscript%3E',
  '%5C',
  '%2F',
  '%2E%2E',
  'x%0Ay',
  '%20',
  '-',
  'A'.repeat(201),
  'a'.repeat(3000),
];

/** Query strings: every parameter the routes read, hostile values, repeated, and names that are hostile. */
function queries(): string[] {
  const values = ['%00', '%FF', '%', '-1', '1e309', '99999999999999999999', "'", ''];
  const out: string[] = [];
  for (const name of ['suite', 'branch', 'before', 'limit', 'other']) {
    for (const v of values) out.push(`${name}=${v}`);
    out.push(`${name}=a&${name}=b`, `${name}=1&${name}=1`, `${name}[]=a`, name);
  }
  out.push('%00=1', 'a%00=1', '%FF=1', '&&&', '=', 'x'.repeat(4000));
  return out;
}

/** Bodies for the routes that take one: not JSON, not objects, deeply nested, NUL in strings. */
function bodies(upload: RunUpload): string[] {
  const nul = withRunId(upload, 'run-nul-1');
  nul.meta.suite = `${nul.meta.suite}\u0000`;
  const gitNul = withRunId(upload, 'run-nul-2');
  gitNul.meta.git = { commit: 'c'.repeat(40), branch: 'main\u0000' };
  return [
    '',
    '{',
    'null',
    '[]',
    '"x"',
    '{}',
    '[['.repeat(5000),
    `${'['.repeat(3000)}${']'.repeat(3000)}`,
    JSON.stringify({ slug: 'x\u0000', name: 'a\u0000' }),
    JSON.stringify({ slug: 'nul-name', name: 'a\u0000' }),
    JSON.stringify({ kind: 'read\u0000' }),
    JSON.stringify({ run_id: 'a\u0000', note: 'b\u0000' }),
    JSON.stringify({ run_id: project.runId, note: 'b\u0000' }),
    JSON.stringify(nul),
    JSON.stringify(gitNul),
  ];
}

async function newDb(kind: string): Promise<string> {
  if (kind === 'postgres') return cluster!.createDatabase();
  const d = mkdtempSync(join(tmpdir(), 'rgate-srv-fuzz-data-'));
  dirs.push(d);
  return join(d, 'data');
}

const backends = ['sqlite', pgSkip ? `postgres (skipped: ${pgSkip})` : 'postgres'];

describe.each(backends)('every route over %s', (kind) => {
  const skip = kind.startsWith('postgres (');
  const test = skip ? it.skip : it;
  let srv: RunningServer;
  let token = '';
  /** a valid value for each route parameter, so that one hostile parameter reaches its handler */
  let valid: Record<string, string> = {};

  beforeAll(async () => {
    if (skip) return;
    srv = await startServer(await newDb(kind), { rateLimit: 0 });
    token = await createProject(srv.base, 'pub', true);
    await createProject(srv.base, 'priv');
    const up = await call(srv.base, 'POST', '/api/projects/pub/runs', { token, body: project.upload });
    expect(up.status, up.text).toBe(201);
    valid = {
      project: 'pub',
      run: project.runId,
      a: project.runId,
      b: project.runId,
      suite: project.upload.meta.suite,
      session: 'no-such-session',
      id: 'no-such-token',
      name: 'chart.umd.js',
    };
  });
  afterAll(async () => {
    if (!skip) await srv.stop();
  });

  /** Each request's status; the ones that are 500 (or otherwise 5xx), with what was sent. */
  async function sweep(requests: { method: string; path: string; token?: string; body?: string }[]) {
    const failures: string[] = [];
    const statuses: number[] = [];
    // a few at a time: the stores see concurrent hostile requests, the machine is not flooded
    for (let i = 0; i < requests.length; i += 8) {
      const batch = requests.slice(i, i + 8);
      const answers = await Promise.all(
        batch.map((r) =>
          raw(srv.base, r.method, r.path, {
            ...(r.token ? { token: r.token } : {}),
            ...(r.body !== undefined ? { body: r.body } : {}),
          }),
        ),
      );
      answers.forEach((a, j) => {
        statuses.push(a.status);
        const r = batch[j]!;
        if (a.status >= 500) {
          failures.push(
            `${r.method} ${r.path.slice(0, 120)} ${r.token === ADMIN ? 'admin' : r.token ? 'upload' : 'anonymous'} ${(r.body ?? '').slice(0, 60)}: ${a.status} ${a.text.slice(0, 100)}`,
          );
        }
      });
    }
    return { failures, statuses };
  }

  function fill(path: string, hostile?: string, value?: string): string {
    return path.replace(/:(\w+)/g, (_m, name: string) =>
      name === hostile ? value! : encodeURIComponent(valid[name] ?? 'x'),
    );
  }

  test('the routes are read from the server: every route of docs/server.md and the dashboard is there', () => {
    const names = routesOf(srv).map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /',
        'GET /api/health',
        'POST /api/projects',
        'DELETE /api/projects/:project/tokens/:id',
        'PUT /api/projects/:project/baselines/:suite',
        'GET /p/:project/diff/:a/:b',
        'GET /assets/:name',
      ]),
    );
  });

  test('a hostile value in any URL parameter, with any token: never a 5xx; a NUL byte is a 400', async () => {
    const requests = [];
    for (const route of routesOf(srv)) {
      for (const param of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
        for (const seg of SEGMENTS) {
          for (const t of [undefined, ADMIN, token]) {
            requests.push({
              method: route.method,
              path: fill(route.path, param, seg),
              ...(t ? { token: t } : {}),
              ...(route.method === 'POST' || route.method === 'PUT' ? { body: '{}' } : {}),
            });
          }
        }
      }
    }
    const { failures, statuses } = await sweep(requests);
    expect(failures).toEqual([]);
    const nul = requests.flatMap((r, i) =>
      /%00/.test(r.path) ? [`${r.method} ${r.path} ${statuses[i]}`] : [],
    );
    expect(nul.length).toBeGreaterThan(0);
    expect(nul.filter((line) => !line.endsWith(' 400'))).toEqual([]);
  });

  test('a hostile or repeated query parameter on any route: never a 5xx; a NUL byte or a repeated name is a 400', async () => {
    const requests = [];
    for (const route of routesOf(srv)) {
      // with the upload token: every route of the public project is then read or written
      for (const q of queries()) {
        requests.push({
          method: route.method,
          path: `${fill(route.path)}?${q}`,
          token,
          ...(route.method === 'POST' || route.method === 'PUT' ? { body: '{}' } : {}),
        });
      }
    }
    const { failures, statuses } = await sweep(requests);
    expect(failures).toEqual([]);
    const must400 = requests.flatMap((r, i) => {
      const q = r.path.slice(r.path.indexOf('?') + 1);
      const names = q
        .split('&')
        .map((p) => p.split('=')[0])
        .filter((n) => n !== '');
      const repeated = names.length !== new Set(names).size;
      return /%00/.test(q) || repeated ? [`${r.method} ${r.path} ${statuses[i]}`] : [];
    });
    expect(must400.length).toBeGreaterThan(0);
    expect(must400.filter((line) => !line.endsWith(' 400'))).toEqual([]);
  });

  test('a hostile body on every route that takes one, with each token: never a 5xx', async () => {
    const requests = [];
    for (const route of routesOf(srv).filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      for (const body of bodies(project.upload)) {
        for (const t of [undefined, ADMIN, token]) {
          requests.push({ method: route.method, path: fill(route.path), body, ...(t ? { token: t } : {}) });
        }
      }
    }
    const { failures } = await sweep(requests);
    expect(failures).toEqual([]);
  });
});
