import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/program.js';
import type { CompareSession } from '../src/documents/index.js';
import { uploadOf } from '../src/cli/upload-client.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import { captureIo } from './helpers/cli-io.js';
import { postgresUnavailable, startPgCluster } from './helpers/postgres.js';
import { ADMIN, call, createProject, startServer, type RunningServer } from './helpers/server.js';

/**
 * Comparison sessions on `rgate server`: `rgate compare --upload` (the variants' runs, then the
 * session) against a real server on SQLite, POST /api/projects/:project/sessions's refusals, and a
 * session kept pending while the server is down.
 */
const BEIR_MINI = resolve(import.meta.dirname, 'data', 'beir-mini');
const dir = mkdtempSync(join(tmpdir(), 'rgate-srv-sess-'));
let srv: RunningServer;
let token = '';

beforeAll(async () => {
  const io = captureIo(dir);
  if ((await runCli(['init', '--from', 'beir', BEIR_MINI], io)) !== 0) throw new Error(io.stderr.join('\n'));
  srv = await startServer(join(dir, 'server'), { rateLimit: 0 });
  token = await createProject(srv.base, 'ci');
});
afterAll(async () => {
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = { RGATE_SERVER_TOKEN: token }) {
  const io = captureIo(dir, env);
  const code = await runCli(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const COMPARE = [
  'compare',
  'retrieval',
  '--set',
  'bm25.k1=0.9',
  '--set',
  'bm25.k1=1.5',
  '--replays',
  '1',
  '--resamples',
  '200',
  '--permutations',
  '200',
  '--format',
  'md',
];

function storedSession(id: string): CompareSession {
  return JSON.parse(
    readFileSync(join(dir, '.rgate', 'compare', id, 'session.json'), 'utf8'),
  ) as CompareSession;
}

async function serverSessions(): Promise<string[]> {
  const store = (await srv.stores.projectStore('ci'))!;
  return (await store.listCompareSessions()).map((s) => s.session_id);
}

let sessionId = '';

describe('rgate compare --upload', () => {
  it("uploads the variants' runs, then the session; its page answers through the server", async () => {
    const r = await cli([...COMPARE, '--upload', srv.base, '--project', 'ci']);
    expect(r.code, r.err).toBe(0);
    const line = r.out.split('\n').at(-1)!;
    const m = /^uploaded session (cmp-\S+): (\S+)$/.exec(line);
    expect(m, r.out).not.toBeNull();
    sessionId = m![1]!;
    expect(m![2]).toBe(`${srv.base}/p/ci/compare/${sessionId}`);
    expect(r.err).toContain(`uploaded run ${sessionId}-v1: ${srv.base}/p/ci/runs/${sessionId}-v1`);
    // variants are not nightly history (as locally): no run of the project lists or counts them
    const runs = await call(srv.base, 'GET', '/api/projects/ci/runs', { token });
    expect(runs.body.runs).toEqual([]);
    for (const v of ['v1', 'v2']) {
      const run = await call(srv.base, 'GET', `/api/projects/ci/runs/${sessionId}-${v}`, { token });
      expect((run.body.run as { compare_session: string }).compare_session).toBe(sessionId);
      expect((await call(srv.base, 'GET', `/p/ci/runs/${sessionId}-${v}`, { token })).status).toBe(200);
    }
    const page = await call(srv.base, 'GET', `/p/ci/compare/${sessionId}`, { token });
    expect(page.status).toBe(200);
    expect(page.text).toContain('bm25.k1=1.5');
    expect(page.text).toContain(`href="/p/ci/runs/${sessionId}-v2"`);
    expect(await serverSessions()).toEqual([sessionId]);
  });

  it("a nightly run uploaded after the comparison is the suite's whole history: trend, banner, counts, runs list", async () => {
    const nightly = await cli(['run', '--upload', srv.base, '--project', 'ci']);
    expect(nightly.code, nightly.err).toBe(0);
    const runId = /uploaded run (\S+):/.exec(nightly.out)![1]!;
    const trend = await call(srv.base, 'GET', '/p/ci/suites/retrieval', { token });
    expect(trend.text).toContain(`Newest run ${runId}:`);
    expect(trend.text).not.toContain(sessionId);
    expect(trend.text).toContain('The newest 1 run(s) of this suite (1 complete)');
    const project = await call(srv.base, 'GET', '/p/ci', { token });
    expect(project.text).not.toContain(`${sessionId}-v`);
    expect(project.text).toContain(`href="/p/ci/compare/${sessionId}"`);
    const list = await call(srv.base, 'GET', '/p/ci/runs', { token });
    expect(list.text).toContain(runId);
    expect(list.text).not.toContain(`${sessionId}-v`);
    const index = await call(srv.base, 'GET', '/', { token: ADMIN });
    expect(index.text).toContain(runId);
    expect(index.text).not.toContain(`${sessionId}-v`);
    // nor can a variant become the suite's baseline
    const base = await call(srv.base, 'PUT', '/api/projects/ci/baselines/retrieval', {
      token,
      body: { run_id: `${sessionId}-v1` },
    });
    expect([base.status, base.body.path]).toEqual([400, '/run_id']);
    expect(base.body.error).toContain('not nightly history');
  });

  it('the same session again is one session (200); other content under its id is 409', async () => {
    const doc = storedSession(sessionId);
    const again = await call(srv.base, 'POST', '/api/projects/ci/sessions', { token, body: doc });
    expect([again.status, again.body]).toEqual([
      200,
      { session_id: sessionId, stored: false, url: `/p/ci/compare/${sessionId}` },
    ]);
    const other = structuredClone(doc);
    other.variants[1]!.label = 'something else';
    const clash = await call(srv.base, 'POST', '/api/projects/ci/sessions', { token, body: other });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe(`session ${sessionId} is already stored in project ci with other content`);
    expect(await serverSessions()).toEqual([sessionId]);
  });

  it('a bad body is 400 with its JSON path; a run the project lacks is named (409)', async () => {
    const doc = storedSession(sessionId);
    const bad = structuredClone(doc) as unknown as { variants: { run_id: unknown }[] };
    bad.variants[0]!.run_id = 7;
    const r400 = await call(srv.base, 'POST', '/api/projects/ci/sessions', { token, body: bad });
    expect(r400.status).toBe(400);
    expect(r400.body.path).toBe('/variants/0/run_id');
    expect(r400.body.error).toMatch(/^\/variants\/0\/run_id: must be string/);
    const slash = structuredClone(doc);
    slash.environment.session_id = 'a/b';
    const rSlash = await call(srv.base, 'POST', '/api/projects/ci/sessions', { token, body: slash });
    expect([rSlash.status, rSlash.body.path]).toEqual([400, '/environment/session_id']);
    const lost = structuredClone(doc);
    lost.environment.session_id = 'cmp-elsewhere';
    lost.variants[1]!.run_id = 'run-not-uploaded';
    const r409 = await call(srv.base, 'POST', '/api/projects/ci/sessions', { token, body: lost });
    expect(r409.status).toBe(409);
    expect(r409.body).toEqual({
      error:
        "run run-not-uploaded (variant v2) is not stored in project ci: a session's runs exist only where rgate compare ran: upload them with the session (rgate compare --upload; a session kept pending is sent after its runs by rgate upload --pending)",
      path: '/variants/1/run_id',
    });
    expect(await serverSessions()).toEqual([sessionId]);
  });

  it('refuses a missing, unknown or read-only token and another project', async () => {
    const doc = storedSession(sessionId);
    const post = (t?: string, project = 'ci') =>
      call(srv.base, 'POST', `/api/projects/${project}/sessions`, { ...(t ? { token: t } : {}), body: doc });
    expect((await post()).status).toBe(401);
    expect((await post('rgate_up_wrong')).status).toBe(403);
    const read = await call(srv.base, 'POST', '/api/projects/ci/tokens', {
      token: ADMIN,
      body: { kind: 'read' },
    });
    const ro = await post(read.body.token as string);
    expect([ro.status, ro.body.error]).toEqual([403, expect.stringMatching(/is a read token/)]);
    const otherToken = await createProject(srv.base, 'other');
    // the session's runs are in project ci, not in project other
    expect((await post(otherToken, 'other')).status).toBe(409);
    expect((await post(token, 'other')).status).toBe(403);
  });

  it("with the server down the exit code stays the comparison's; rgate upload --pending sends the runs, then the session", async () => {
    const closed = await new Promise<number>((done) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => done(port));
      });
    });
    const down = await cli([
      ...COMPARE,
      '--upload',
      `http://127.0.0.1:${closed}`,
      '--project',
      'ci',
      '--retries',
      '0',
    ]);
    expect(down.code, down.err).toBe(0);
    expect(down.err).toMatch(/could not take run cmp-\S+-v1 \(ECONNREFUSED\)/);
    expect(down.err).toMatch(
      /warning: not every run of the session reached .* session cmp-\S+ kept in \.rgate\/pending-uploads\/session--cmp-\S+--ci\.json: send it later with rgate upload --pending/,
    );
    const pendingDir = join(dir, '.rgate', 'pending-uploads');
    const files = readdirSync(pendingDir).sort();
    expect(files).toHaveLength(3);
    const id = /^session--(cmp-\S+)--ci\.json$/.exec(files.find((f) => f.startsWith('session--'))!)![1]!;
    const sent = await cli(['upload', '--pending', '--server', srv.base, '--json']);
    expect(sent.code, sent.err).toBe(0);
    const results = JSON.parse(sent.out) as { kind: string; run_id?: string; session_id?: string }[];
    expect(results.map((x) => [x.run_id ?? x.session_id, x.kind])).toEqual([
      [`${id}-v1`, 'stored'],
      [`${id}-v2`, 'stored'],
      [id, 'stored'],
    ]);
    expect(readdirSync(pendingDir)).toEqual([]);
    expect((await serverSessions()).sort()).toEqual([sessionId, id].sort());
    expect((await call(srv.base, 'GET', `/p/ci/compare/${id}`, { token })).status).toBe(200);
  });
});

const pgSkip = postgresUnavailable();
describe.skipIf(pgSkip !== undefined)(`over PostgreSQL${pgSkip ? ` (skipped: ${pgSkip})` : ''}`, () => {
  it('runs first, then the session; the same session again is 200', async () => {
    const runs = new SqliteRunStore(join(dir, 'server', 'projects', 'ci.sqlite'));
    const uploads = [1, 2].map((i) => uploadOf(runs, `${sessionId}-v${i}`));
    runs.close();
    const cluster = await startPgCluster();
    const pg = await startServer(await cluster.createDatabase(), { rateLimit: 0 });
    try {
      const t = await createProject(pg.base, 'ci');
      const post = (what: string, body: unknown) =>
        call(pg.base, 'POST', `/api/projects/ci/${what}`, { token: t, body });
      const doc = storedSession(sessionId);
      expect((await post('sessions', doc)).status).toBe(409); // its runs first
      for (const u of uploads) expect((await post('runs', u)).status).toBe(201);
      expect((await post('sessions', doc)).status).toBe(201);
      expect((await post('sessions', doc)).body).toEqual({
        session_id: sessionId,
        stored: false,
        url: `/p/ci/compare/${sessionId}`,
      });
      expect((await call(pg.base, 'GET', `/p/ci/compare/${sessionId}`, { token: t })).status).toBe(200);

      // two server processes on one database (two apps, two connection pools), each sent another
      // document under one new id at once: one stores it, the other is refused, whichever wins
      const other = await startServer(pg.db, { rateLimit: 0 });
      try {
        for (let k = 0; k < 6; k++) {
          const id = `${sessionId}-race${k}`;
          const docs = ['2026-11-26T00:00:00Z', '2026-11-27T00:00:00Z'].map((created_at) => ({
            ...doc,
            environment: { session_id: id, created_at },
          }));
          const [a, b] = await Promise.all(
            [pg.base, other.base].map((base, i) =>
              call(base, 'POST', '/api/projects/ci/sessions', { token: t, body: docs[i] }),
            ),
          );
          expect([a!.status, b!.status].sort(), `${a!.text} ${b!.text}`).toEqual([201, 409]);
          const kept = (await (await pg.stores.projectStore('ci'))!.getCompareSession(id)) as CompareSession;
          expect(kept).toEqual(docs[a!.status === 201 ? 0 : 1]);
        }
      } finally {
        await other.stop();
      }
    } finally {
      await pg.stop();
      await cluster.stop();
    }
  });
});
