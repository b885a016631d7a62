import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../reports/dashboard/index.js';
import { runCli } from '../src/cli/program.js';
import type { RunUpload } from '../src/documents/index.js';
import { captureIo } from './helpers/cli-io.js';
import {
  describeOnPostgres,
  postgresUnavailable,
  startPgCluster,
  type PgCluster,
} from './helpers/postgres.js';
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

/**
 * The server's API, the same suite over its two stores: SQLite files in a data directory, and a
 * PostgreSQL database (a throwaway cluster). A real run of a real project is the upload.
 */
let project: Awaited<ReturnType<typeof localProject>>;
let upload: RunUpload;
const pgSkip = postgresUnavailable();
let cluster: PgCluster | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  project = await localProject();
  upload = project.upload;
  if (!pgSkip) cluster = await startPgCluster();
});
afterAll(async () => {
  project.cleanup();
  await cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function newDb(kind: string): Promise<string> {
  if (kind === 'postgres') return cluster!.createDatabase();
  const d = mkdtempSync(join(tmpdir(), 'rgate-srv-data-'));
  dirs.push(d);
  return join(d, 'data');
}

/**
 * A body of `total` bytes sent a chunk at a time over a plain socket (keep-alive, as a client
 * uploading would be), each chunk after the last was taken, stopping as soon as an answer arrives:
 * `sent` is how much had gone when it did (the whole body if the server waited for it).
 */
function sendSlowly(
  base: string,
  method: string,
  path: string,
  total: number,
  token?: string,
): Promise<{ status: number; text: string; sent: number; total: number }> {
  const url = new URL(base);
  const chunk = Buffer.alloc(256 * 1024, 'a');
  const auth = token ? `authorization: Bearer ${token}\r\n` : '';
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answeredAt: number | undefined;
    let got = '';
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      answeredAt ??= sent;
      got += d.toString();
      const m = /^HTTP\/1\.1 (\d+)[^]*?\r\ncontent-length: (\d+)\r\n[^]*?\r\n\r\n([^]*)$/i.exec(got);
      if (m && Buffer.byteLength(m[3]!) >= Number(m[2])) {
        socket.destroy();
        resolve({ status: Number(m[1]), text: m[3]!, sent: answeredAt, total });
      }
    });
    socket.write(
      `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: ${total}\r\n${auth}\r\n{"x":"`,
    );
    sent = 6;
    const next = (): void => {
      if (answeredAt !== undefined || socket.destroyed) return;
      const left = total - sent - 2;
      if (left <= 0) {
        sent = total;
        socket.write('"}');
        return;
      }
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      sent += part.length;
      socket.write(part, () => setImmediate(next));
    };
    next();
  });
}

const backends = ['sqlite', pgSkip ? `postgres (skipped: ${pgSkip})` : 'postgres'];

describe.each(backends)('rgate server API over %s', (kind) => {
  const skip = kind.startsWith('postgres (');
  let srv: RunningServer;
  beforeAll(async () => {
    if (skip) return;
    srv = await startServer(await newDb(kind), { rateLimit: 0 });
  });
  afterAll(async () => {
    if (!skip) await srv.stop();
  });
  const test = skip ? it.skip : it;

  test('admin routes: no token 401, a wrong token 403, a project created once with its token shown once', async () => {
    expect((await call(srv.base, 'POST', '/api/projects', { body: { slug: 'a' } })).status).toBe(401);
    const wrong = await call(srv.base, 'POST', '/api/projects', { token: 'nope', body: { slug: 'a' } });
    expect(wrong.status).toBe(403);
    expect(wrong.text).not.toContain('nope');
    const made = await call(srv.base, 'POST', '/api/projects', {
      token: ADMIN,
      body: { slug: 'alpha', name: 'Alpha' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ slug: 'alpha', name: 'Alpha', public_read: false });
    expect(made.body.token).toMatch(/^rgate_up_[A-Za-z0-9_-]{43}$/);
    expect(
      (await call(srv.base, 'POST', '/api/projects', { token: ADMIN, body: { slug: 'alpha' } })).status,
    ).toBe(409);
    const bad = await call(srv.base, 'POST', '/api/projects', { token: ADMIN, body: { slug: 'Not A Slug' } });
    expect([bad.status, bad.body.path]).toEqual([400, '/slug']);
    // a project token is not the admin token
    const asProject = await call(srv.base, 'POST', '/api/projects/alpha/tokens', {
      token: made.body.token as string,
    });
    expect(asProject.status).toBe(403);
    const listed = await call(srv.base, 'GET', '/api/projects/alpha/tokens', { token: ADMIN });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token as string);
    expect(JSON.stringify(listed.body)).not.toContain('sha256');
  });

  test('upload: idempotent by run id (201, then 200, one run), the URL, git kept, listed and read back', async () => {
    const token = await createProject(srv.base, 'idem');
    const doc = withRunId(upload, 'run-idem-1');
    doc.meta.git = { commit: 'c0ffee0123456789c0ffee0123456789c0ffee01', branch: 'main' };
    const first = await call(srv.base, 'POST', '/api/projects/idem/runs', { token, body: doc });
    expect([first.status, first.body]).toEqual([
      201,
      { run_id: 'run-idem-1', stored: true, url: '/p/idem/runs/run-idem-1' },
    ]);
    const again = await call(srv.base, 'POST', '/api/projects/idem/runs', { token, body: doc });
    expect([again.status, again.body.stored]).toEqual([200, false]);
    const list = await call(srv.base, 'GET', '/api/projects/idem/runs', { token });
    const runs = list.body.runs as {
      run_id: string;
      git?: unknown;
      observation_count: number;
      verdict: string;
    }[];
    expect(runs.map((r) => r.run_id)).toEqual(['run-idem-1']);
    expect(runs[0]!.git).toEqual(doc.meta.git);
    expect(runs[0]!.observation_count).toBe(doc.observations.length);
    expect(runs[0]!.verdict).toBe(doc.result.verdict);
    const one = await call(srv.base, 'GET', '/api/projects/idem/runs/run-idem-1', { token });
    expect(one.status).toBe(200);
    expect(one.body.report).toEqual(doc.result.report);
    // other content under the same id is refused, and the stored run stays as it was
    const other = structuredClone(doc);
    other.result.finished_at = '2099-01-01T00:00:00Z';
    expect((await call(srv.base, 'POST', '/api/projects/idem/runs', { token, body: other })).status).toBe(
      409,
    );
    expect((await call(srv.base, 'GET', '/api/projects/idem/runs', { token })).body.runs).toHaveLength(1);
  });

  test('concurrent duplicates of one run store it once: one 201, the rest 200', async () => {
    const token = await createProject(srv.base, 'dup');
    const doc = withRunId(upload, 'run-dup-1');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(srv.base, 'POST', '/api/projects/dup/runs', { token, body: doc }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    const runs = (await call(srv.base, 'GET', '/api/projects/dup/runs', { token })).body.runs as unknown[];
    expect(runs).toHaveLength(1);
  });

  test('a bad upload is a 400 naming the JSON path of its first problem; nothing is stored', async () => {
    const token = await createProject(srv.base, 'bad');
    const post = (body: unknown, raw?: string) =>
      call(srv.base, 'POST', '/api/projects/bad/runs', {
        token,
        ...(raw !== undefined ? { raw } : { body }),
      });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- spoiling a document on purpose
    const cases: [(d: Record<string, any>) => void, string][] = [
      [(d) => (d.observations[1].ok = 'yes'), '/observations/1/ok'],
      [(d) => delete d.meta.artifacts, '/meta/artifacts'],
      [(d) => (d.result.report.gate.verdict = 'MAYBE'), '/result/report/gate/verdict'],
      [(d) => (d.result.report.environment.run_id = 'another'), '/result/report/environment/run_id'],
      [(d) => (d.meta.run_id = '../../etc'), '/meta/run_id'],
      [
        (d) => d.observations.push(structuredClone(d.observations[0])),
        `/observations/${upload.observations.length}`,
      ],
      [(d) => (d.extra = 1), '/extra'],
    ];
    for (const [spoil, path] of cases) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- spoiling a document on purpose
      const d = structuredClone(withRunId(upload, 'run-bad')) as unknown as Record<string, any>;
      spoil(d);
      const r = await post(d);
      expect([r.status, r.body.path], JSON.stringify(r.body)).toEqual([400, path]);
      expect(r.body.error).toMatch(new RegExp(`^${path.replace(/[/]/g, '\\/')}: `));
    }
    const broken = await post(undefined, '{"schema": ');
    expect(broken.status).toBe(400);
    expect((await call(srv.base, 'GET', '/api/projects/bad/runs', { token })).body.runs).toEqual([]);
  });

  test("a bad admin body is a 400 naming the JSON path of its first problem, as an upload's is; nothing is made", async () => {
    const admin = (path: string, body: unknown) => call(srv.base, 'POST', path, { token: ADMIN, body });
    const before = (await call(srv.base, 'GET', '/api/projects', { token: ADMIN })).body.projects;
    const cases: [string, unknown, string, string][] = [
      [
        '/api/projects',
        { slug: 'Not A Slug' },
        '/slug',
        '/slug: must match ^[a-z0-9][a-z0-9-]{0,59}$ (lower-case letters, digits, dashes)',
      ],
      ['/api/projects', { name: 'No slug' }, '/slug', '/slug: is required'],
      [
        '/api/projects',
        { slug: 'bad-name', name: '' },
        '/name',
        '/name: must NOT have fewer than 1 characters',
      ],
      ['/api/projects', { slug: 'bad-name', name: null }, '/name', '/name: must be string'],
      [
        '/api/projects',
        { slug: 'bad-pub', public_read: 'yes' },
        '/public_read',
        '/public_read: must be boolean',
      ],
      ['/api/projects', { slug: 'bad-extra', owner: 'me' }, '/owner', '/owner: is not a known field'],
      ['/api/projects', ['bad-array'], '/', '/: must be object'],
      ['/api/projects/bad-tok/tokens', { kind: 'admin' }, '/kind', '/kind: must be one of "upload", "read"'],
      ['/api/projects/bad-tok/tokens', { kind: 'read', ttl: 3600 }, '/ttl', '/ttl: is not a known field'],
    ];
    await createProject(srv.base, 'bad-tok');
    const tokens = async () =>
      (await call(srv.base, 'GET', '/api/projects/bad-tok/tokens', { token: ADMIN })).body.tokens;
    const tokensBefore = await tokens();
    for (const [path, body, at, error] of cases) {
      const r = await admin(path, body);
      expect([r.status, r.body], `${path} ${JSON.stringify(body)}`).toEqual([400, { error, path: at }]);
    }
    expect(await tokens()).toEqual(tokensBefore);
    const after = (await call(srv.base, 'GET', '/api/projects', { token: ADMIN })).body.projects as {
      slug: string;
    }[];
    expect(after.map((p) => p.slug)).toEqual(
      [...(before as { slug: string }[]).map((p) => p.slug), 'bad-tok'].sort(),
    );
    // the defaults of a valid body are as they were: no body at all is an upload token, a project
    // without a name is named by its slug and private
    const noBody = await call(srv.base, 'POST', '/api/projects/bad-tok/tokens', { token: ADMIN });
    expect([noBody.status, noBody.body.kind]).toEqual([201, 'upload']);
    const bare = await admin('/api/projects', { slug: 'bare' });
    expect([bare.status, bare.body.name, bare.body.public_read]).toEqual([201, 'bare', false]);
  });

  test("tokens: another project's, a read token, a revoked one are refused for upload; a new one works", async () => {
    const token = await createProject(srv.base, 'tok');
    const foreign = await createProject(srv.base, 'tok-other');
    const doc = withRunId(upload, 'run-tok-1');
    const post = (t?: string) =>
      call(srv.base, 'POST', '/api/projects/tok/runs', { ...(t ? { token: t } : {}), body: doc });
    expect((await post()).status).toBe(401);
    expect((await post('rgate_up_not-a-token')).status).toBe(403);
    expect((await post(foreign)).status).toBe(403);
    const read = await call(srv.base, 'POST', '/api/projects/tok/tokens', {
      token: ADMIN,
      body: { kind: 'read' },
    });
    expect(read.status).toBe(201);
    expect((await post(read.body.token as string)).status).toBe(403);
    const tokens = (await call(srv.base, 'GET', '/api/projects/tok/tokens', { token: ADMIN })).body
      .tokens as { id: string; kind: string }[];
    const first = tokens.find((t) => t.kind === 'upload')!;
    expect(
      (await call(srv.base, 'DELETE', `/api/projects/tok/tokens/${first.id}`, { token: ADMIN })).status,
    ).toBe(200);
    const revoked = await post(token);
    expect([revoked.status, revoked.body.error]).toEqual([403, `token ${first.id} was revoked`]);
    expect((await call(srv.base, 'DELETE', '/api/projects/tok/tokens/nosuch', { token: ADMIN })).status).toBe(
      404,
    );
    const fresh = await call(srv.base, 'POST', '/api/projects/tok/tokens', { token: ADMIN, body: {} });
    expect((await post(fresh.body.token as string)).status).toBe(201);
  });

  test('read access: a private project needs a read token (API and pages), a public one does not; pages carry CSP and nosniff', async () => {
    const token = await createProject(srv.base, 'private-p');
    const pub = await createProject(srv.base, 'public-p', true);
    const doc = withRunId(upload, 'run-read-1');
    await call(srv.base, 'POST', '/api/projects/private-p/runs', { token, body: doc });
    await call(srv.base, 'POST', '/api/projects/public-p/runs', { token: pub, body: doc });
    // without a token a private project is answered as a missing one (404), never 401 (which told it exists)
    expect((await call(srv.base, 'GET', '/api/projects/private-p/runs')).status).toBe(404);
    expect((await call(srv.base, 'GET', '/p/private-p/runs/run-read-1')).status).toBe(404);
    expect((await call(srv.base, 'GET', '/api/projects/private-p/runs', { token: pub })).status).toBe(403);
    const read = (
      await call(srv.base, 'POST', '/api/projects/private-p/tokens', { token: ADMIN, body: { kind: 'read' } })
    ).body.token as string;
    expect((await call(srv.base, 'GET', '/api/projects/private-p/runs', { token: read })).status).toBe(200);
    const page = await call(srv.base, 'GET', '/p/private-p/runs/run-read-1', { token: read });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // the dashboard's run page: the report framed, its scripts from /assets/ (no inline script to hash)
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('run-read-1');
    const open = await call(srv.base, 'GET', '/api/projects/public-p/runs');
    expect(open.status).toBe(200);
    const index = await call(srv.base, 'GET', '/');
    expect(index.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(index.text).toContain('/p/public-p');
    expect(index.text).not.toContain('private-p');
    expect((await call(srv.base, 'GET', '/api/projects/nosuch/runs')).status).toBe(404);
  });

  test('a private project answers exactly as a missing one to a caller who may not read it: API and pages, no token or another token', async () => {
    const token = await createProject(srv.base, 'hidden-p');
    const other = await createProject(srv.base, 'seen-p', true);
    await call(srv.base, 'POST', '/api/projects/hidden-p/runs', {
      token,
      body: withRunId(upload, 'run-hidden-1'),
    });
    const requests = (slug: string): [string, string][] => [
      ['GET', `/api/projects/${slug}/runs`],
      ['GET', `/api/projects/${slug}/runs/run-hidden-1`],
      ['GET', `/p/${slug}`],
      ['GET', `/p/${slug}/runs`],
      ['GET', `/p/${slug}/runs/run-hidden-1`],
      ['POST', `/api/projects/${slug}/runs`],
      ['POST', `/api/projects/${slug}/sessions`],
      ['PUT', `/api/projects/${slug}/baselines/retrieval`],
    ];
    const missing = requests('no-such-p');
    for (const t of [undefined, 'rgate_rd_made-up', other]) {
      for (const [i, [method, path]] of requests('hidden-p').entries()) {
        const opts = { ...(t ? { token: t } : {}), ...(method === 'GET' ? {} : { body: {} }) };
        const hidden = await call(srv.base, method, path, opts);
        const none = await call(srv.base, missing[i]![0], missing[i]![1], opts);
        const what = `${method} ${path} ${t ?? 'no token'}`;
        expect([hidden.status, hidden.text.replaceAll('hidden-p', 'X')], what).toEqual([
          none.status,
          none.text.replaceAll('no-such-p', 'X'),
        ]);
        expect(hidden.status, what).toBeGreaterThanOrEqual(401);
      }
    }
    // its own token opens it; the admin token, which reads every project, is told which are missing
    expect((await call(srv.base, 'GET', '/api/projects/hidden-p/runs', { token })).status).toBe(200);
    expect((await call(srv.base, 'GET', '/api/projects/hidden-p/runs', { token: ADMIN })).status).toBe(200);
    const admin = await call(srv.base, 'GET', '/api/projects/no-such-p/runs', { token: ADMIN });
    expect([admin.status, admin.body.error]).toEqual([404, 'no project "no-such-p"']);
  });

  test('the token is checked before the body is read: a 45 MB upload without a good token is refused while it is still being sent', async () => {
    await createProject(srv.base, 'big-anon');
    const cases: [string, string | undefined, number][] = [
      ['/api/projects/big-anon/runs', undefined, 401],
      ['/api/projects/no-such-big/runs', undefined, 401],
      ['/api/projects/big-anon/runs', 'rgate_up_made-up', 403],
      ['/api/projects/big-anon/sessions', undefined, 401],
      ['/api/projects/big-anon/baselines/retrieval', undefined, 401],
      ['/api/projects', undefined, 401],
      ['/api/projects/big-anon/tokens', 'rgate_up_made-up', 403],
    ];
    for (const [path, token, status] of cases) {
      const r = await sendSlowly(
        srv.base,
        path.includes('baselines') ? 'PUT' : 'POST',
        path,
        45 * 1024 * 1024,
        token,
      );
      expect([r.status, r.sent < r.total], `${path} ${r.text}`).toEqual([status, true]);
    }
    expect((await call(srv.base, 'GET', '/api/health')).status).toBe(200);
  });

  test("GET /api/projects lists what / lists: the public projects, those the caller's token reads, every one for the admin", async () => {
    const uploadToken = await createProject(srv.base, 'list-priv');
    await createProject(srv.base, 'list-pub', true);
    const read = (
      await call(srv.base, 'POST', '/api/projects/list-priv/tokens', { token: ADMIN, body: { kind: 'read' } })
    ).body.token as string;
    const seen: Record<string, string[]> = {};
    for (const [who, t] of [
      ['none', undefined],
      ['read', read],
      ['upload', uploadToken],
      ['admin', ADMIN],
    ] as const) {
      const opts = t ? { token: t } : {};
      const api = (await call(srv.base, 'GET', '/api/projects', opts)).body.projects as { slug: string }[];
      const page = (await call(srv.base, 'GET', '/', opts)).text;
      const slugs = api.map((p) => p.slug);
      for (const slug of ['list-priv', 'list-pub']) {
        expect(page.includes(`/p/${slug}"`), `${who} ${slug}`).toBe(slugs.includes(slug));
      }
      seen[who] = slugs.filter((s) => s.startsWith('list-'));
    }
    expect(seen).toEqual({
      none: ['list-pub'],
      read: ['list-priv', 'list-pub'],
      upload: ['list-priv', 'list-pub'],
      admin: ['list-priv', 'list-pub'],
    });
  });

  test('a NUL character is a 400 wherever it is (URL, query, body string, with its JSON path), never a 500', async () => {
    const token = await createProject(srv.base, 'nul');
    for (const path of ['/api/projects/x%00/runs', '/api/projects/nul/runs/a%00', '/p/nul/runs?branch=%00']) {
      const r = await call(srv.base, 'GET', path, { token });
      expect([r.status, r.text], path).toEqual([400, expect.stringContaining('NUL')]);
    }
    const doc = withRunId(upload, 'run-nul-1');
    doc.meta.git = { commit: 'c'.repeat(40), branch: 'main\u0000' };
    const r = await call(srv.base, 'POST', '/api/projects/nul/runs', { token, body: doc });
    expect([r.status, r.body]).toEqual([
      400,
      {
        error: '/meta/git/branch: holds a NUL character (U+0000), which the server does not store',
        path: '/meta/git/branch',
      },
    ]);
    const rep = await call(srv.base, 'GET', '/api/projects/nul/runs?suite=a&suite=b', { token });
    expect([rep.status, rep.body]).toEqual([
      400,
      { error: 'query parameter "suite" is given more than once', path: '/suite' },
    ]);
    expect((await call(srv.base, 'GET', '/api/projects/nul/runs', { token })).body.runs).toEqual([]);
  });

  test('every answer carries the one Content-Security-Policy docs/server.md quotes, JSON as pages', async () => {
    const docs = readFileSync(join(import.meta.dirname, '..', 'docs', 'server.md'), 'utf8');
    expect(docs).toContain(`Content-Security-Policy: ${DASHBOARD_CSP}\``);
    for (const path of ['/api/health', '/api/projects', '/api/projects/nosuch/runs', '/', '/p/nosuch']) {
      const r = await call(srv.base, 'GET', path);
      expect(r.headers.get('content-security-policy'), path).toBe(DASHBOARD_CSP);
    }
  });

  test('no token is kept in plain text: the registry holds sha256 digests only', async () => {
    const token = await createProject(srv.base, 'hashed');
    if (kind === 'sqlite') {
      const file = join(srv.db, 'server.sqlite');
      const db = new Database(file, { readonly: true });
      const rows = db.prepare("SELECT sha256 FROM tokens WHERE project = 'hashed'").all() as {
        sha256: string;
      }[];
      db.close();
      expect(rows.map((r) => r.sha256)).toHaveLength(1);
      expect(rows[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
      for (const f of readdirSync(srv.db)) {
        if (f.startsWith('server.sqlite')) expect(readFileSync(join(srv.db, f)).includes(token)).toBe(false);
      }
    } else {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: srv.db });
      await c.connect();
      const all = await c.query('SELECT row_to_json(t)::text AS j FROM rgate_server.tokens t');
      await c.end();
      expect(all.rows.map((r: { j: string }) => r.j).join('\n')).not.toContain(token);
    }
  });
});

describeOnPostgres('the database down: pages answer an HTML 503, the API JSON', () => {
  it('a page is a small HTML page saying to reload; the API says retry; both with Retry-After', async () => {
    const { cluster: own, srv, token } = await startPgServer('down', true);
    try {
      expect((await call(srv.base, 'GET', '/p/down', { token })).status).toBe(200);
      await own.stop();
      const page = await call(srv.base, 'GET', '/p/down', { token });
      expect([page.status, page.headers.get('content-type'), page.headers.get('retry-after')]).toEqual([
        503,
        'text/html; charset=utf-8',
        '1',
      ]);
      expect(page.text).toContain(
        'the server cannot reach its database just now; reload this page in a moment',
      );
      const api = await call(srv.base, 'GET', '/api/projects/down/runs', { token });
      expect([api.status, api.body]).toEqual([503, { error: 'the database is unavailable; retry' }]);
    } finally {
      await srv.app.close();
    }
  });
});

describe('rgate server --db naming what cannot be a data directory', () => {
  it('a regular file, or a path through one, is a usage error (exit 2) with a hint, nothing started', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rgate-srv-dbfile-'));
    dirs.push(d);
    writeFileSync(join(d, 'notes.txt'), 'not a directory\n');
    for (const [db, why] of [
      ['notes.txt', '--db notes.txt: is a file, not a directory'],
      ['notes.txt/data', '--db notes.txt/data: cannot make the data directory there (ENOTDIR'],
    ] as const) {
      const io = captureIo(d, {});
      expect(await runCli(['server', '--db', db, '--port', '0'], io), db).toBe(2);
      const err = io.stderr.join('\n');
      expect(err, db).toContain(`rgate: error: ${why}`);
      expect(err, db).toMatch(/\n {2}hint: name a directory for the server's data/);
      expect(err, db).not.toMatch(/internal error|EEXIST|\n\s+at /);
    }
    expect(readFileSync(join(d, 'notes.txt'), 'utf8')).toBe('not a directory\n');
  });
});

describe('limits (SQLite server)', () => {
  it('a body over the limit is a 413, and the server goes on', async () => {
    const srv = await startServer(await newDb('sqlite'), { bodyLimit: 20_000, rateLimit: 0 });
    try {
      const token = await createProject(srv.base, 'big');
      const r = await call(srv.base, 'POST', '/api/projects/big/runs', {
        token,
        body: withRunId(upload, 'big-1'),
      });
      expect(r.status).toBe(413);
      expect(r.body.error).toBe(
        'the body is larger than this server accepts (20000 bytes; rgate server --body-limit-mb)',
      );
      // a body that is not JSON is 415, as docs/server.md says, not a schema error about a string
      const text = await call(srv.base, 'POST', '/api/projects/big/runs', {
        token,
        raw: 'hello',
        contentType: 'text/plain',
      });
      expect([text.status, text.body]).toEqual([
        415,
        { error: 'the body must be JSON (content-type: application/json)' },
      ]);
      expect((await call(srv.base, 'GET', '/api/health')).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it("made-up or revoked tokens buy no budget of their own: they share the anonymous caller's, and a real token is not held back", async () => {
    const srv = await startServer(await newDb('sqlite'), { rateLimit: 5 });
    try {
      const token = await createProject(srv.base, 'open', true);
      const made = await call(srv.base, 'POST', '/api/projects/open/tokens', { token: ADMIN, body: {} });
      const revoked = made.body.token as string;
      await call(srv.base, 'DELETE', `/api/projects/open/tokens/${made.body.id as string}`, { token: ADMIN });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const fake = i === 3 ? revoked : `rgate_up_fake_${i}`;
        statuses.push(
          (await call(srv.base, 'POST', '/api/projects/open/runs', { token: fake, body: {} })).status,
        );
      }
      expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429, 429, 429, 429, 429, 429]);
      // nor can a reader without a token get past them: it is the same caller (one address)
      expect((await call(srv.base, 'GET', '/api/projects/open/runs')).status).toBe(429);
      expect((await call(srv.base, 'GET', '/api/projects/open/runs', { token })).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it('too many requests from one token is a 429 with Retry-After; another token is not held back', async () => {
    const srv = await startServer(await newDb('sqlite'), { rateLimit: 3 });
    try {
      const token = await createProject(srv.base, 'busy');
      const other = await createProject(srv.base, 'calm');
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 4; i++) {
        const r = await call(srv.base, 'GET', '/api/projects/busy/runs', { token });
        statuses.push(r.status);
        retryAfter ??= r.headers.get('retry-after');
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await call(srv.base, 'GET', '/api/projects/calm/runs', { token: other })).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });
});
