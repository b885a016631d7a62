import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, SETTINGS } from '../../test/helpers/run-rows.js';
import { postgresUnavailable, startPgCluster, type PgCluster } from '../../test/helpers/postgres.js';
import { MIGRATIONS } from './migrations.js';
import { PG_MIGRATIONS } from './pg-migrations.js';
import { PgRunStore, redactDbUrl } from './pg-store.js';

/** What only the PostgreSQL store has: its migrations, its connection string, its errors. */
const skip = postgresUnavailable();
let cluster: PgCluster | undefined;
if (skip) console.warn(`PostgreSQL store tests skipped: ${skip}`);
else {
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, args: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, args)).rows;
  } finally {
    await c.end();
  }
}

describe('PostgreSQL migrations, same numbers and names as SQLite', () => {
  it('PG_MIGRATIONS and MIGRATIONS are the same list of steps', () => {
    expect(PG_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
  });

  it('never shows a password', () => {
    expect(redactDbUrl('postgres://ci:hunter2@db.example:5432/rgate')).toBe(
      'postgres://ci@db.example:5432/rgate',
    );
    expect(redactDbUrl('postgresql://ci@db/rgate?sslmode=require')).toBe(
      'postgresql://ci@db/rgate?sslmode=require',
    );
  });
});

describe.skipIf(skip)(`PgRunStore${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('records every migration in schema_version, once, when several stores (separate connections) open a new database at once', async () => {
    const url = await cluster!.createDatabase();
    const stores = await Promise.all([PgRunStore.open(url), PgRunStore.open(url), PgRunStore.open(url)]);
    await Promise.all(stores.map((s) => s.close()));
    await (await PgRunStore.open(url)).close();
    const rows = await query<{ version: number }>(url, 'SELECT version FROM schema_version ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('keeps stores in separate schemas of one database apart (rgate server: one schema per project)', async () => {
    const url = await cluster!.createDatabase();
    const [a, b] = await Promise.all([
      PgRunStore.open(url, { schema: 'p_alpha' }),
      PgRunStore.open(url, { schema: 'p_beta' }),
    ]);
    await a.beginRun({
      run_id: 'r1',
      suite: 's',
      started_at: '2026-11-22T00:00:00Z',
      artifacts: ARTIFACTS,
      settings: SETTINGS,
    });
    expect((await a.listRuns()).map((r) => r.run_id)).toEqual(['r1']);
    expect(await b.listRuns()).toEqual([]);
    expect(a.location).toMatch(/\(schema p_alpha\)$/);
    await Promise.all([a.close(), b.close()]);
    const tables = await query<{ s: string }>(
      url,
      "SELECT DISTINCT table_schema AS s FROM information_schema.tables WHERE table_name = 'runs' ORDER BY 1",
    );
    expect(tables.map((t) => t.s)).toEqual(['p_alpha', 'p_beta']);
    await expect(PgRunStore.open(url, { schema: 'Bad"; DROP' })).rejects.toThrow(/not a plain identifier/);
  });

  it('survives its connection being terminated while checked out (a PostgreSQL restart mid-transaction)', async () => {
    const url = await cluster!.createDatabase();
    const s = await PgRunStore.open(url);
    const pool = (s as unknown as { pool: pg.Pool }).pool;
    const c = await pool.connect();
    const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const ended = new Promise((r) => c.once('end', r));
    // as `pg_ctl restart -m fast` does to every backend; without a listener the client's 'error' would end the process
    await query(url, 'SELECT pg_terminate_backend($1)', [pid]);
    await ended;
    c.release(true);
    await s.beginRun({ run_id: 'r1', suite: 's', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS });
    expect((await s.listRuns()).map((r) => r.run_id)).toEqual(['r1']);
    await s.close();
  });

  it('keeps a numerator to the last digit (DOUBLE PRECISION, not a 4-byte REAL)', async () => {
    const url = await cluster!.createDatabase();
    const s = await PgRunStore.open(url);
    await s.beginRun({ run_id: 'r1', suite: 'x', started_at: 't', artifacts: ARTIFACTS, settings: SETTINGS });
    const rate = 123456789 / 123456791;
    await s.finishRun('r1', {
      status: 'complete',
      finished_at: 't2',
      metrics: [
        {
          id: 'm',
          value: { kind: 'rate', numerator: 123456789, denominator: 123456791, rate, wilson95: [0.9, 1] },
          help: 'h',
        },
      ],
    });
    const [m] = await query<{ numerator: number; value: number }>(
      url,
      'SELECT numerator, value FROM measures',
    );
    expect(m).toEqual({ numerator: 123456789, value: rate });
    await s.close();
  });

  it('refuses a database written by a newer rgate', async () => {
    const url = await cluster!.createDatabase();
    await (await PgRunStore.open(url)).close();
    await query(url, "INSERT INTO schema_version (version, name) VALUES (999, 'future')");
    await expect(PgRunStore.open(url)).rejects.toThrow(/newer than this rgate understands/);
  });

  it('a database that does not exist is an input error naming it, without its password', async () => {
    const url = new URL(await cluster!.createDatabase());
    url.pathname = '/no_such_db';
    url.password = 'hunter2';
    const err = await PgRunStore.open(url.toString()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'input_invalid' });
    expect((err as Error).message).toMatch(
      /^PostgreSQL store postgres:\/\/rgate@localhost\/no_such_db\?host=.* has no such database/,
    );
    expect((err as Error).message).not.toContain('hunter2');
  });
});

describe('PgRunStore without a server', () => {
  it('a refused connection is an input error naming the store, without its password', async () => {
    // port 1 on 127.0.0.1: nothing listens there, and it is never a PostgreSQL server
    const err = await PgRunStore.open('postgres://ci:hunter2@127.0.0.1:1/rgate').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'input_invalid' });
    expect((err as Error).message).toBe(
      'PostgreSQL store postgres://ci@127.0.0.1:1/rgate refused the connection (is the server running, on that host and port?)',
    );
  });
});
