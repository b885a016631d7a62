/**
 * For the server tests: a real local project with one real run (rgate init from BEIR mini, then rgate
 * run on the builtin engine), its upload document, and `rgate server` started in-process on
 * 127.0.0.1 port 0 over real SQLite files or a real PostgreSQL database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { uploadOf } from '../../src/cli/upload-client.js';
import type { RunUpload } from '../../src/documents/index.js';
import { SqliteRunStore } from '../../src/store/sqlite-store.js';
import { buildServer, openServerStores, type ServerOptions, type ServerStores } from '../../server/index.js';
import { captureIo } from './cli-io.js';
import { startPgCluster, type PgCluster } from './postgres.js';

export const ADMIN = 'admin-token-for-tests-0123456789';
const BEIR_MINI = resolve(import.meta.dirname, '..', 'data', 'beir-mini');

/** A project folder with rgate.config.json and one finished run in .rgate/history.sqlite. */
export async function localProject(
  prefix = 'rgate-srv-proj-',
  beir = BEIR_MINI,
): Promise<{ dir: string; runId: string; upload: RunUpload; cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const io = captureIo(dir);
  if ((await runCli(['init', '--from', 'beir', beir], io)) !== 0) throw new Error(io.stderr.join('\n'));
  if ((await runCli(['run'], io)) !== 0) throw new Error(io.stderr.join('\n'));
  const store = new SqliteRunStore(join(dir, '.rgate', 'history.sqlite'));
  const runId = store.listRuns()[0]!.run_id;
  const upload = uploadOf(store, runId);
  store.close();
  return { dir, runId, upload, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The same run under another id (and so another run to the server). */
export function withRunId(upload: RunUpload, runId: string): RunUpload {
  const copy = structuredClone(upload);
  copy.meta.run_id = runId;
  (copy.result.report as { environment: { run_id: string } }).environment.run_id = runId;
  return copy;
}

export interface RunningServer {
  base: string;
  app: FastifyInstance;
  stores: ServerStores;
  /** the data directory (SQLite) or the database URL (PostgreSQL) */
  db: string;
  stop(): Promise<void>;
}

export async function startServer(db: string, opts: ServerOptions = {}): Promise<RunningServer> {
  const stores = await openServerStores(db);
  const app = await buildServer(stores, { adminToken: ADMIN, ...opts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    base,
    app,
    stores,
    db,
    async stop() {
      await app.close();
      await stores.close();
    },
  };
}

/** A JSON request; the answer's status, parsed body and headers. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string; contentType?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; text: string }> {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // an HTML page
  }
  return { status: res.status, body, headers: res.headers, text };
}

/**
 * The client-side tests' world: a local project (localProject), a server on SQLite files with
 * project "ci" and its upload token, and `cli` running rgate in the project with that token (or
 * `env`). Registers its own beforeAll/afterAll; the fields are set once beforeAll has run.
 */
export function clientAgainstServer(prefix: string): {
  project: Awaited<ReturnType<typeof localProject>>;
  srv: RunningServer;
  token: string;
  data: string;
  cli(args: string[], env?: Record<string, string>): Promise<{ code: number; out: string; err: string }>;
} {
  const world = {
    data: mkdtempSync(join(tmpdir(), prefix)),
    token: '',
    async cli(args: string[], env: Record<string, string> = { RGATE_SERVER_TOKEN: world.token }) {
      const io = captureIo(world.project.dir, env);
      const code = await runCli(args, io);
      return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
    },
  } as ReturnType<typeof clientAgainstServer>;
  beforeAll(async () => {
    world.project = await localProject();
    world.srv = await startServer(join(world.data, 'server'), { rateLimit: 0 });
    world.token = await createProject(world.srv.base, 'ci');
  });
  afterAll(async () => {
    await world.srv.stop();
    world.project.cleanup();
    rmSync(world.data, { recursive: true, force: true });
  });
  return world;
}

/** A throwaway PostgreSQL cluster, a server on a database of it, and one project: its upload token. */
export async function startPgServer(
  slug: string,
  publicRead: boolean,
): Promise<{ cluster: PgCluster; srv: RunningServer; token: string }> {
  const cluster = await startPgCluster();
  const srv = await startServer(await cluster.createDatabase(), { rateLimit: 0 });
  return { cluster, srv, token: await createProject(srv.base, slug, publicRead) };
}

/** Create a project as the admin; its first upload token. */
export async function createProject(base: string, slug: string, publicRead = false): Promise<string> {
  const r = await call(base, 'POST', '/api/projects', {
    token: ADMIN,
    body: { slug, name: slug, public_read: publicRead },
  });
  if (r.status !== 201) throw new Error(`create project: ${r.status} ${r.text}`);
  return r.body.token as string;
}
