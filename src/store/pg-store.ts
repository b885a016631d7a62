import pg from 'pg';
import { compareCodeUnits } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import {
  verdictAsStored,
  type MetricEntry,
  type Observation,
  type RunMeta,
  type RunOwner,
  type RunRow,
} from '../documents/index.js';
import type { AsyncRunStore } from './async-store.js';
import { observationBody, rowsWithBodies, RunBodies, type ObservationRecord } from './observation-packs.js';
import { packJson, packStoredReport } from './packed-json.js';
import { PG_MIGRATIONS } from './pg-migrations.js';
import {
  measureColumns,
  runInsert,
  storedReader,
  type RunRecord,
  type UnreadableHint,
  runListOrder,
  runListWhere,
  startingAt,
} from './run-record.js';
import { importConflict, importDigest } from './run-import.js';
import { facetSql, insertRunSql, numbered, PG_SQL as SQL, RUN_SELECT, runCountSql } from './sql.js';
import type {
  CompareSessionRow,
  ImportOutcome,
  RunFacets,
  RunImport,
  RunListFilter,
  RunResult,
  RunsSummary,
} from './types.js';

// Every ORDER BY on text names the "C" collation: byte order, the order SQLite's BINARY gives and the
// same whatever locale the cluster was created with (en_US would sort "b" before "B-1" differently).

/** pg_advisory_lock key ('rgat') held while migrating, so two processes opening a new database take turns. */
const MIGRATION_LOCK = 0x72676174;
/** PostgreSQL's error code for a text its type refuses (a cast to json of text that is not JSON). */
const INVALID_TEXT_REPRESENTATION = '22P02';

const PG_HINT: UnreadableHint = (runId) =>
  `written by another rgate version or edited by hand: delete that run with psql ("DELETE FROM runs WHERE run_id = '${runId}'"), or use another --db`;

/** `$1, $2, ... $n`: the placeholders of an n-value statement. */
function placeholders(n: number): string {
  return Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');
}

/** The connection string without its password: what messages and `location` show. */
export function redactDbUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '';
    return u.toString().replace(/^(postgres(?:ql)?:\/\/[^:@/]*):@/, '$1@');
  } catch {
    return 'postgres://(unparsable connection string)';
  }
}

/** Apply pending migrations, each in its own transaction with its schema_version row, under one lock. */
async function migrate(client: pg.PoolClient, schema: string | undefined): Promise<number> {
  const latest = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    // under the lock: two servers creating the same project's schema at once would collide
    if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(SQL.schemaVersionTable);
    const current = async (): Promise<number> =>
      (await client.query<{ v: number }>(SQL.schemaVersion)).rows[0]!.v;
    const now = await current();
    if (now > latest) {
      throw new RgateError(
        'input_invalid',
        `run store schema version ${now} is newer than this rgate understands (${latest})`,
        'upgrade rgate, or point --db at another database',
      );
    }
    for (const m of PG_MIGRATIONS) {
      if (m.version <= now) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(SQL.schemaVersionInsert, [m.version, m.name]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
    }
    return latest;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

/** What the pg driver says of a database that cannot be used, as an input error naming it (never its password). */
function unusableDb(location: string, e: unknown): unknown {
  if (e instanceof RgateError) return e;
  const code = (e as { code?: string }).code ?? '';
  const known: Record<string, string> = {
    ECONNREFUSED: 'refused the connection (is the server running, on that host and port?)',
    ENOENT: 'has no socket there (is the server running, with that socket directory?)',
    ENOTFOUND: 'names a host that does not resolve',
    ETIMEDOUT: 'did not answer in time',
    '28P01': 'refused the password',
    '28000': 'refused the role (pg_hba.conf, or no such role)',
    '3D000': 'has no such database (create it first: createdb)',
  };
  const reason = known[code];
  if (!reason) return e;
  return new RgateError(
    'input_invalid',
    `PostgreSQL store ${location} ${reason}`,
    'check --db (postgres://user:password@host:5432/database); the password may come from PGPASSWORD',
  );
}

export interface PgStoreOptions {
  /** connections kept open (default 10) */
  max?: number;
  /**
   * the PostgreSQL schema the store lives in (created when missing; its tables and migrations are its
   * own): `rgate server` keeps each project in one, so projects share a database and never a table.
   * Default: the connection's search_path (normally `public`).
   */
  schema?: string;
}

/** A schema name rgate creates: a plain lower-case identifier, so it never needs more quoting than "". */
export const PG_SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The run history in PostgreSQL (`rgate server --db postgres://...`), the same contract as the SQLite
 * store, asynchronous. Observations and reports are kept deflated as in SQLite; a run's finish (status,
 * measures, verdict) is one transaction.
 */
export class PgRunStore implements AsyncRunStore {
  readonly location: string;
  /** what the store reads back, checked and naming its runs (run-record.ts) */
  private readonly read: ReturnType<typeof storedReader>;
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    location: string,
  ) {
    this.location = location;
    this.read = storedReader(location, PG_HINT);
  }

  /** Connect, apply pending migrations and return the store; a database that cannot be used is an input error. */
  static async open(url: string, opts: PgStoreOptions = {}): Promise<PgRunStore> {
    const schema = opts.schema;
    if (schema !== undefined && !PG_SCHEMA_NAME.test(schema)) {
      throw new RgateError(
        'usage',
        `PostgreSQL schema name ${JSON.stringify(schema)} is not a plain identifier`,
        'use lower-case letters, digits and _ (at most 63)',
      );
    }
    const location = schema === undefined ? redactDbUrl(url) : `${redactDbUrl(url)} (schema ${schema})`;
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? 10,
      // every pooled connection starts in the schema, so no statement below names it
      ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    });
    // a connection the server closed (a restart) must not crash the process: the next query reconnects.
    // The pool listens on idle connections only; a checked-out one (between two statements of a
    // transaction) emits 'error' too, and an 'error' nobody listens to kills the process. Its query
    // still fails, so the caller sees the error.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    try {
      const client = await pool.connect();
      try {
        await migrate(client, schema);
      } finally {
        client.release();
      }
    } catch (e) {
      await pool.end();
      throw unusableDb(location, e);
    }
    return new PgRunStore(pool, location);
  }

  private async rows<T extends pg.QueryResultRow>(sql: string, args: unknown[] = []): Promise<T[]> {
    return (await this.pool.query<T>(sql, args)).rows;
  }

  private async inTransaction(work: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      try {
        await work(c);
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK');
        throw e;
      }
    } finally {
      c.release();
    }
  }

  async beginRun(meta: RunMeta): Promise<void> {
    const { columns, values } = runInsert(meta);
    await this.pool.query(numbered(insertRunSql(columns, values.length)), values);
  }

  async findRunByContentKey(key: string): Promise<RunRow | undefined> {
    const [r] = await this.rows<RunRecord>(SQL.runByContentKey, [key]);
    return r && this.read.row(r);
  }

  async resumeRun(runId: string, owner?: RunOwner): Promise<void> {
    const res = await this.pool.query(SQL.runResume, [
      owner === undefined ? null : JSON.stringify(owner),
      runId,
    ]);
    if (res.rowCount === 0) throw new RgateError('usage', `no run ${runId} in ${this.location}`);
  }

  /**
   * One request's observation, whole in its row: rgate server stores runs by importRun (bodies in
   * packs); a request at a time is what only tests do here, and a pack per request would not pack.
   */
  async addObservation(runId: string, obs: Observation): Promise<void> {
    await this.pool.query(
      `INSERT INTO observations (run_id, replay, query_id, json) VALUES ($1, $2, $3, $4)
       ON CONFLICT (run_id, replay, query_id) DO UPDATE SET json = EXCLUDED.json, latency_ms = NULL, pack = NULL, slot = NULL`,
      [runId, obs.replay, obs.query_id, packJson(obs)],
    );
  }

  async finishRun(runId: string, result: RunResult): Promise<void> {
    await this.inTransaction((c) => writeResult(c, runId, result));
  }

  async importRun(run: RunImport): Promise<ImportOutcome> {
    const digest = importDigest(run);
    const id = run.meta.run_id;
    let outcome: ImportOutcome = 'stored';
    await this.inTransaction(async (c) => {
      const { columns, values } = runInsert(run.meta);
      // a concurrent import of the same id waits here for the other's commit, then finds its row
      const inserted = await c.query(
        `INSERT INTO runs (status, ${columns}, import_sha256) VALUES ('running', ${placeholders(values.length + 1)})
         ON CONFLICT (run_id) DO NOTHING`,
        [...values, digest],
      );
      if (inserted.rowCount === 0) {
        const [stored] = (await c.query<{ import_sha256: string | null }>(SQL.runImportDigest, [id])).rows;
        if (stored?.import_sha256 !== digest) throw importConflict(id, this.location);
        outcome = 'exists';
        return;
      }
      // observations in batches of one statement each (arrays unnested), not one round trip per row;
      // each batch's new bodies in one pack (observation-packs.ts)
      const bodies = new RunBodies([]);
      for (let i = 0; i < run.observations.length; i += 1000) {
        const batch = run.observations.slice(i, i + 1000);
        const { places, pack } = bodies.place(batch.map(observationBody));
        if (pack) {
          await c.query('INSERT INTO observation_packs (run_id, pack, bodies) VALUES ($1, $2, $3)', [
            id,
            pack.pack,
            pack.bodies,
          ]);
        }
        await c.query(
          `INSERT INTO observations (run_id, replay, query_id, latency_ms, pack, slot)
           SELECT $1, * FROM unnest($2::int[], $3::text[], $4::float8[], $5::int[], $6::int[])
           ON CONFLICT (run_id, replay, query_id) DO UPDATE SET latency_ms = EXCLUDED.latency_ms,
             pack = EXCLUDED.pack, slot = EXCLUDED.slot, json = NULL`,
          [
            id,
            batch.map((o) => o.replay),
            batch.map((o) => o.query_id),
            batch.map((o) => o.latency_ms ?? null),
            places.map((p) => p.pack),
            places.map((p) => p.slot),
          ],
        );
      }
      await writeResult(c, id, run.result);
    });
    return outcome;
  }

  async getRun(runId: string): Promise<RunRow | undefined> {
    const [r] = await this.rows<RunRecord>(SQL.runById, [runId]);
    return r && this.read.row(r);
  }

  async listRuns(filter: RunListFilter = {}): Promise<RunRow[]> {
    const args: unknown[] = [];
    const param = (v: string | number) => `$${args.push(v)}`;
    const where = runListWhere(filter, param, ' COLLATE "C"');
    const order = runListOrder(filter, param, ' COLLATE "C"');
    const limit = filter.limit !== undefined && filter.limit >= 0 ? filter.limit : null;
    const rows = await this.rows<RunRecord>(
      `${RUN_SELECT} WHERE ${where}
       ORDER BY ${order} LIMIT $${args.push(limit)} OFFSET $${args.push(filter.offset ?? 0)}`,
      args,
    );
    return startingAt(rows, filter.from).map((r) => this.read.row(r));
  }

  async summarizeRuns(filter: Pick<RunListFilter, 'suite' | 'idPrefix'> = {}): Promise<RunsSummary> {
    const args: unknown[] = [];
    const where = runListWhere(filter, (v) => `$${args.push(v)}`);
    const [count] = await this.rows<{ n: number }>(runCountSql(where), args);
    const [newest] = await this.rows<NonNullable<RunsSummary['newest']>>(
      `SELECT r.run_id, r.suite, r.started_at, v.verdict FROM runs r LEFT JOIN verdicts v ON v.run_id = r.run_id
       WHERE ${where} ORDER BY r.started_at COLLATE "C" DESC, r.run_id COLLATE "C" DESC LIMIT 1`,
      args,
    );
    return { run_count: count?.n ?? 0, newest: newest ?? null };
  }

  async runFacets(): Promise<RunFacets> {
    const column = async (c: 'suite' | 'git_branch') =>
      (await this.rows<{ v: string }>(facetSql(c)))
        .map((r) => r.v)
        // the order every listing of names uses (SQL's byte order differs above the BMP)
        .sort(compareCodeUnits);
    return { suites: await column('suite'), branches: await column('git_branch') };
  }

  async getObservations(runId: string): Promise<Observation[]> {
    const rows = await this.rows<ObservationRecord>(
      'SELECT replay, latency_ms, pack, slot, json FROM observations WHERE run_id = $1 ORDER BY replay, query_id COLLATE "C"',
      [runId],
    );
    const packs = await this.rows<{ pack: number; bodies: Buffer }>(
      'SELECT pack, bodies FROM observation_packs WHERE run_id = $1 ORDER BY pack',
      [runId],
    );
    return this.read.observations(rowsWithBodies(rows, packs), runId);
  }

  async getMetrics(runId: string): Promise<MetricEntry[]> {
    const rows = await this.rows<{ json: string }>(
      'SELECT json FROM measures WHERE run_id = $1 ORDER BY metric_id COLLATE "C"',
      [runId],
    );
    return this.read.metrics(rows, runId);
  }

  async getMetricsOf(runIds: readonly string[]): Promise<MetricEntry[][]> {
    // a run's measures as one array, else row by row below: 1,000 rows through the driver, not
    // 12,000. The cast to json refuses a text that is not JSON (the json type keeps each text as it
    // is, so JSON.parse reads each element as it would read the row); the rows then name it
    const lists = await this.rows<{ run_id: string; n: string; ok: boolean; list: string }>(
      `SELECT run_id, COUNT(*) AS n, true AS ok,
              json_agg(json::json ORDER BY metric_id COLLATE "C")::text AS list
       FROM measures WHERE run_id = ANY($1::text[]) GROUP BY run_id`,
      [[...runIds]],
    ).catch((e: unknown) => {
      if ((e as { code?: unknown }).code === INVALID_TEXT_REPRESENTATION) return undefined;
      throw e;
    });
    const fast = lists && this.read.metricLists(lists, runIds);
    if (fast) return fast;
    const rows = await this.rows<{ run_id: string; json: string }>(
      'SELECT run_id, json FROM measures WHERE run_id = ANY($1::text[]) ORDER BY run_id COLLATE "C", metric_id COLLATE "C"',
      [[...runIds]],
    );
    return this.read.metricsOf(rows, runIds);
  }

  async getReport(runId: string): Promise<unknown> {
    const [r] = await this.rows<{ report_json: Buffer | null }>(SQL.runReport, [runId]);
    return this.read.report(r?.report_json, runId);
  }

  async setBaseline(suite: string, runId: string, note?: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO baselines (suite, run_id, note) VALUES ($1, $2, $3)
       ON CONFLICT (suite) DO UPDATE SET run_id = EXCLUDED.run_id, note = EXCLUDED.note`,
      [suite, runId, note ?? null],
    );
  }

  async getBaseline(suite: string): Promise<{ run_id: string; note: string | null } | undefined> {
    const [r] = await this.rows<{ run_id: string; note: string | null }>(SQL.baseline, [suite]);
    return r && { run_id: r.run_id, note: r.note };
  }

  async saveCompareSession(row: CompareSessionRow, document: unknown): Promise<unknown> {
    // a row that was there already is not changed: the no-op update only makes RETURNING hand it back
    // (xmax is 0 for a row this statement inserted)
    const [r] = await this.rows<{ json: string; inserted: boolean }>(
      `INSERT INTO compare_sessions (session_id, suite, created_at, kind, variant_count, summary, json)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (session_id) DO UPDATE SET session_id = compare_sessions.session_id
       RETURNING compare_sessions.json, (xmax = 0) AS inserted`,
      [
        row.session_id,
        row.suite,
        row.created_at,
        row.kind,
        row.variant_count,
        row.summary,
        JSON.stringify(document),
      ],
    );
    return r!.inserted ? undefined : JSON.parse(r!.json);
  }

  async listCompareSessions(filter: { suite?: string; limit?: number } = {}): Promise<CompareSessionRow[]> {
    const limit = filter.limit !== undefined && filter.limit >= 0 ? filter.limit : null;
    const rows = await this.rows<CompareSessionRow>(
      `SELECT session_id, suite, created_at, kind, variant_count, summary FROM compare_sessions
       WHERE ($1::text IS NULL OR suite = $1)
       ORDER BY created_at COLLATE "C" DESC, session_id COLLATE "C" DESC LIMIT $2`,
      [filter.suite ?? null, limit],
    );
    return rows.map((r) => ({ ...r }));
  }

  async getCompareSession(sessionId: string): Promise<unknown> {
    const [r] = await this.rows<{ json: string }>(SQL.compareSession, [sessionId]);
    return r ? JSON.parse(r.json) : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** status, report, measures and verdict of a finished run, inside the caller's transaction */
async function writeResult(c: pg.PoolClient, runId: string, result: RunResult): Promise<void> {
  await c.query(SQL.runFinish, [
    result.status,
    result.finished_at,
    result.report === undefined ? null : packStoredReport(result.report),
    runId,
  ]);
  for (const m of result.metrics) {
    const { num, den, value } = measureColumns(m);
    await c.query(
      `INSERT INTO measures (run_id, metric_id, kind, numerator, denominator, value, json) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (run_id, metric_id) DO UPDATE SET kind = EXCLUDED.kind, numerator = EXCLUDED.numerator,
             denominator = EXCLUDED.denominator, value = EXCLUDED.value, json = EXCLUDED.json`,
      [runId, m.id, m.value.kind, num, den, value, JSON.stringify(m)],
    );
  }
  if (result.gate_id && result.verdict) {
    await c.query(
      `INSERT INTO verdicts (run_id, gate_id, verdict) VALUES ($1, $2, $3)
           ON CONFLICT (run_id, gate_id) DO UPDATE SET verdict = EXCLUDED.verdict`,
      [runId, result.gate_id, verdictAsStored(result.gate_id, result.verdict)],
    );
  }
}
