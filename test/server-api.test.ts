import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../reports/dashboard/index.js';
import type { RunUpload } from '../src/documents/index.js';
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
    expect((await call(srv.base, 'GET', '/api/projects/private-p/runs')).status).toBe(401);
    expect((await call(srv.base, 'GET', '/p/private-p/runs/run-read-1')).status).toBe(401);
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
