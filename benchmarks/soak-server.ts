/**
 * `npm run soak:server` (not part of npm test; minutes): rgate server as its own process, over SQLite
 * files and over PostgreSQL (a throwaway cluster, test/helpers/postgres.ts), each:
 *  - 20 concurrent uploaders x 50 runs (the real client, sendUpload, with its retries), then 100 of them
 *    again: every run stored exactly once, every duplicate answered "exists";
 *  - kill -9 of the server after 300 stored runs: right after the kill, every run visible in the store is
 *    whole (all its observations, its report); the server is started again and the clients' retries
 *    complete the uploads;
 *  - PostgreSQL only: `pg_ctl restart -m fast` after 600 stored runs: the clients retry, nothing is lost;
 *  - a graceful restart of the server at the end: everything is still there.
 * Then a 10,000-query run upload (POST to stored), best of 3, beside the store's own importRun of the
 * same run (the reference), goal under 2 s. Figures: benchmarks/results/soak-server.json.
 * Run: npm run soak:server (builds first; the server is dist/src/cli/bin.cjs)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sendUpload, type UploadTarget } from '../src/cli/upload-client.js';
import type { RunUpload } from '../src/documents/index.js';
import { asAsync, PgRunStore, SqliteRunStore, type AsyncRunStore } from '../src/store/index.js';
import { postgresUnavailable, startPgCluster } from '../test/helpers/postgres.js';
import { localProject, withRunId } from '../test/helpers/server.js';
import { isMain, ROOT, writeBenchResult } from './_common.js';
import { syntheticObservations } from './store-import.js';

const ADMIN = 'soak-admin-token-0123456789abcdef';
const UPLOADERS = 20;
const RUNS_EACH = 50;
const KILL_AFTER = 300;
const PG_RESTART_AFTER = 600;

interface Proc {
  child: ChildProcess;
  base: string;
  port: number;
}

/** `rgate server` in its own process; resolves once it says where it listens. */
function startServerProcess(db: string, port: number): Promise<Proc> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist/src/cli/bin.cjs'), 'server', '--db', db, '--port', String(port), '--rate-limit', '0'],
    { env: { ...process.env, RGATE_ADMIN_TOKEN: ADMIN }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m) {
        // from now on its complaints are the soak's (a crash must be seen, not guessed)
        child.stderr!.on('data', (c: Buffer) => process.stderr.write(`[server] ${c.toString()}`));
        resolve({ child, base: m[1]!, port: Number(m[2]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${err}`)));
  });
}

async function stopGracefully(p: Proc): Promise<void> {
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await gone;
}

async function api(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every run the store shows must be whole: complete, every observation, its report. */
async function partialRuns(
  store: AsyncRunStore,
  observations: number,
): Promise<{ visible: number; partial: number }> {
  const runs = await store.listRuns();
  let partial = 0;
  for (const r of runs) {
    const whole =
      r.status === 'complete' &&
      r.observation_count === observations &&
      (await store.getReport(r.run_id)) !== undefined;
    if (!whole) partial++;
  }
  return { visible: runs.length, partial };
}

function spawnAsync(file: string, args: string[], ids: { uid?: number; gid?: number }): Promise<number> {
  return new Promise((resolve) => {
    const c = spawn(file, args, { ...ids, stdio: 'ignore' });
    c.on('exit', (code) => resolve(code ?? -1));
  });
}

async function soak(
  kind: 'sqlite' | 'postgres',
  db: string,
  seed: RunUpload,
  openProjectStore: () => Promise<AsyncRunStore>,
  pgRestart?: () => Promise<number>,
): Promise<Record<string, number | string | boolean>> {
  let proc = await startServerProcess(db, 0);
  const port = proc.port;
  const { token } = (await api(proc.base, 'POST', '/api/projects', ADMIN, {
    slug: 'soak',
    name: 'Soak',
  })) as {
    token: string;
  };
  const target: UploadTarget = { server: proc.base, project: 'soak', token };
  const expectedObs = seed.observations.length;
  const outcomes = { stored: 0, exists: 0, failed: 0 };
  let killedAt = -1;
  let afterKill = { visible: 0, partial: 0 };
  let downMs = 0;
  let pgRestartCode: number | null = null;
  let pgRestartMs = 0;
  const background: Promise<void>[] = [];
  const t0 = performance.now();
  const onStored = (): void => {
    const n = outcomes.stored;
    if (n === KILL_AFTER && killedAt < 0) {
      killedAt = n;
      background.push(
        (async () => {
          const dead = proc;
          const gone = new Promise((r) => dead.child.once('exit', r));
          const tk = performance.now();
          dead.child.kill('SIGKILL');
          await gone;
          // what a reader sees right after the crash: whole runs only
          const store = await openProjectStore();
          afterKill = await partialRuns(store, expectedObs);
          await store.close();
          proc = await startServerProcess(db, port);
          downMs = performance.now() - tk;
        })(),
      );
    }
    if (pgRestart && n === PG_RESTART_AFTER && pgRestartCode === null) {
      pgRestartCode = -2;
      background.push(
        (async () => {
          const tr = performance.now();
          pgRestartCode = await pgRestart();
          pgRestartMs = performance.now() - tr;
        })(),
      );
    }
  };
  await Promise.all(
    Array.from({ length: UPLOADERS }, async (_, u) => {
      for (let i = 0; i < RUNS_EACH; i++) {
        const doc = withRunId(seed, `soak-u${String(u).padStart(2, '0')}-r${String(i).padStart(2, '0')}`);
        const o = await sendUpload(target, doc, { retries: 12, backoffMs: 100 });
        if (o.kind === 'stored') {
          outcomes.stored++;
          onStored();
        } else if (o.kind === 'exists') outcomes.exists++;
        else {
          outcomes.failed++;
          console.error(`${kind}: run ${doc.meta.run_id} not uploaded: ${o.reason}`);
        }
      }
    }),
  );
  await Promise.all(background);
  const uploadMs = performance.now() - t0;
  // 100 duplicates (a CI job retried): every one answered "exists"
  let duplicatesExist = 0;
  for (let k = 0; k < 100; k++) {
    const doc = withRunId(
      seed,
      `soak-u${String(k % UPLOADERS).padStart(2, '0')}-r${String((k * 7) % RUNS_EACH).padStart(2, '0')}`,
    );
    if ((await sendUpload(target, doc, { retries: 4 })).kind === 'exists') duplicatesExist++;
  }
  const list = async (base: string) =>
    (
      (await api(base, 'GET', '/api/projects/soak/runs?limit=1000', token)) as {
        runs: { run_id: string; observation_count: number; status: string }[];
      }
    ).runs;
  const before = await list(proc.base);
  const ids = new Set(before.map((r) => r.run_id));
  const whole = before.filter((r) => r.status === 'complete' && r.observation_count === expectedObs).length;
  // a graceful restart: everything is still there, the same
  await stopGracefully(proc);
  proc = await startServerProcess(db, port);
  const after = await list(proc.base);
  const sample = (await api(proc.base, 'GET', '/api/projects/soak/runs/soak-u07-r33', token)) as {
    report: unknown;
  };
  const sameReport =
    JSON.stringify(sample.report) === JSON.stringify(withRunId(seed, 'soak-u07-r33').result.report);
  await stopGracefully(proc);
  const ok =
    outcomes.failed === 0 &&
    before.length === UPLOADERS * RUNS_EACH &&
    ids.size === before.length &&
    whole === before.length &&
    afterKill.partial === 0 &&
    duplicatesExist === 100 &&
    after.length === before.length &&
    sameReport &&
    (pgRestart === undefined || pgRestartCode === 0);
  const figures: Record<string, number | string | boolean> = {
    [`${kind}_ok`]: ok,
    [`${kind}_runs_stored`]: before.length,
    [`${kind}_distinct_run_ids`]: ids.size,
    [`${kind}_whole_runs`]: whole,
    [`${kind}_answers_stored`]: outcomes.stored,
    // a run stored just before the kill whose answer was lost is answered "exists" on the retry
    [`${kind}_answers_exists_during_upload`]: outcomes.exists,
    [`${kind}_uploads_failed`]: outcomes.failed,
    [`${kind}_killed_after_stored`]: killedAt,
    [`${kind}_runs_visible_right_after_kill`]: afterKill.visible,
    [`${kind}_partial_runs_visible_after_kill`]: afterKill.partial,
    [`${kind}_server_down_ms`]: Math.round(downMs),
    [`${kind}_duplicates_answered_exists`]: duplicatesExist,
    [`${kind}_runs_after_restart`]: after.length,
    [`${kind}_report_same_after_restart`]: sameReport,
    [`${kind}_upload_phase_ms`]: Math.round(uploadMs),
    [`${kind}_uploads_per_s`]: Math.round(((UPLOADERS * RUNS_EACH) / uploadMs) * 1000 * 10) / 10,
  };
  if (pgRestart) {
    figures.postgres_restart_exit_code = pgRestartCode ?? -1;
    figures.postgres_restart_ms = Math.round(pgRestartMs);
  }
  return figures;
}

const QUERIES = 10_000;

/** A 10,000-query run, one replay, ten ranked items each, its report's query outcomes to match. */
function bigRun(seed: RunUpload, runId: string): RunUpload {
  const doc = withRunId(seed, runId);
  const template = (doc.result.report as { queries: { query_id: string }[] }).queries[0]!;
  const queries: unknown[] = [];
  const observations = syntheticObservations(QUERIES);
  for (const { query_id } of observations) queries.push({ ...structuredClone(template), query_id });
  doc.observations = observations;
  const report = doc.result.report as Record<string, unknown>;
  report.queries = queries;
  report.failing_queries = [];
  return doc;
}

async function bigUpload(
  kind: string,
  db: string,
  seed: RunUpload,
  freshStore: () => Promise<AsyncRunStore>,
): Promise<Record<string, number | string | boolean>> {
  const proc = await startServerProcess(db, 0);
  const { token } = (await api(proc.base, 'POST', '/api/projects', ADMIN, { slug: 'big', name: 'Big' })) as {
    token: string;
  };
  const target: UploadTarget = { server: proc.base, project: 'big', token };
  let best = Infinity;
  let bytes = 0;
  for (let i = 0; i <= 3; i++) {
    const doc = bigRun(seed, `big-${i}`);
    bytes = JSON.stringify(doc).length;
    const t = performance.now();
    const o = await sendUpload(target, doc, { retries: 0 });
    const ms = performance.now() - t;
    if (o.kind !== 'stored') throw new Error(`${kind}: big upload answered ${o.kind}`);
    if (i > 0) best = Math.min(best, ms); // round 0 warms up
  }
  await stopGracefully(proc);
  // the reference: the store's own importRun of the same run, in-process, best of 3
  let ref = Infinity;
  for (let i = 0; i <= 3; i++) {
    const store = await freshStore();
    const doc = bigRun(seed, `ref-${i}`);
    const t = performance.now();
    await store.importRun({ meta: doc.meta, observations: doc.observations, result: doc.result });
    const ms = performance.now() - t;
    await store.close();
    if (i > 0) ref = Math.min(ref, ms);
  }
  return {
    [`${kind}_10k_upload_ms`]: Math.round(best),
    [`${kind}_10k_importRun_ms`]: Math.round(ref),
    [`${kind}_10k_upload_over_importRun`]: Math.round((best / ref) * 100) / 100,
    [`${kind}_10k_body_mb`]: Math.round((bytes / 1024 / 1024) * 10) / 10,
    [`${kind}_10k_under_2s`]: best < 2000,
  };
}

async function main(): Promise<void> {
  const project = await localProject('rgate-soak-proj-', join(ROOT, 'test/data/beir-mini'));
  const work = mkdtempSync(join(tmpdir(), 'rgate-soak-server-'));
  const figures: Record<string, number | string | boolean | null> = {
    // the machine's load when the soak started: figures taken on a shared 2-core box read against it
    load_average_1m: Math.round(loadavg()[0]! * 10) / 10,
    uploaders: UPLOADERS,
    runs_each: RUNS_EACH,
    observations_per_run: project.upload.observations.length,
  };
  try {
    const dataDir = join(work, 'sqlite-data');
    Object.assign(
      figures,
      await soak('sqlite', dataDir, project.upload, () =>
        Promise.resolve(asAsync(new SqliteRunStore(join(dataDir, 'projects', 'soak.sqlite')))),
      ),
    );
    let n = 0;
    Object.assign(
      figures,
      await bigUpload('sqlite', join(work, 'sqlite-big'), project.upload, () =>
        Promise.resolve(asAsync(new SqliteRunStore(join(work, `ref-${n++}.sqlite`)))),
      ),
    );
    const skip = postgresUnavailable();
    if (skip) figures.postgres_skipped = skip;
    else {
      const cluster = await startPgCluster();
      try {
        const url = await cluster.createDatabase();
        const restart = cluster.restartCommand;
        Object.assign(
          figures,
          await soak(
            'postgres',
            url,
            project.upload,
            () => PgRunStore.open(url, { schema: 'p_soak' }),
            restart ? () => spawnAsync(restart.file, restart.args, restart) : undefined,
          ),
        );
        Object.assign(
          figures,
          await bigUpload('postgres', await cluster.createDatabase(), project.upload, async () =>
            PgRunStore.open(await cluster.createDatabase()),
          ),
        );
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    project.cleanup();
    rmSync(work, { recursive: true, force: true });
  }
  const ok = Object.entries(figures).every(
    ([k, v]) => !(k.endsWith('_ok') || k.endsWith('_under_2s')) || v === true,
  );
  const result = {
    name: 'soak-server',
    ok,
    figures,
    goals: {
      runs: 'every run of 20 uploaders x 50 stored exactly once, whole; duplicates answered "exists"',
      kill: 'kill -9 mid-upload: no partial run visible; the retries complete every upload',
      postgres_restart: 'pg_ctl restart mid-upload: retried, nothing lost',
      restart: 'after a restart every run is still there',
      upload_10k: 'a 10,000-query run uploaded (POST to stored) in under 2 s',
    },
  };
  writeBenchResult('soak-server', result);
  console.log(JSON.stringify(result, null, 2));
  if (!ok) process.exitCode = 1;
}

// only when run itself (npm run soak:server), never from npm run bench, which imports every benchmark
if (isMain(import.meta.url)) await main();
