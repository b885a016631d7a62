import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
import { MIGRATIONS } from './migrations.js';
import {
  mergePacks,
  observationBody,
  rowsWithBodies,
  RunBodies,
  type ObservationRecord,
} from './observation-packs.js';
import { packStoredReport } from './packed-json.js';
import {
  measureColumns,
  runInsert,
  runListOrder,
  runListWhere,
  startingAt,
  storedReader,
  type RunRecord,
} from './run-record.js';
import { importConflict, importDigest } from './run-import.js';
import { facetSql, insertRunSql, RUN_SELECT, runCountSql, SQLITE_SQL as SQL } from './sql.js';
import type {
  CompareSessionRow,
  ImportOutcome,
  RunImport,
  RunFacets,
  RunListFilter,
  RunResult,
  RunsSummary,
  RunStore,
} from './types.js';

/** Apply pending migrations, each in its own transaction with its schema_version row. */
export function migrate(db: Database.Database): number {
  db.exec(SQL.schemaVersionTable);
  const current = (db.prepare(SQL.schemaVersion).get() as { v: number }).v;
  const latest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new RgateError(
      'input_invalid',
      `run store schema version ${current} is newer than this rgate understands (${latest})`,
      'upgrade rgate, or point --store at another file',
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      // re-read under the write lock: another process opening the same new file may have applied it
      const now = (db.prepare(SQL.schemaVersion).get() as { v: number }).v;
      if (m.version <= now) return;
      db.exec(m.sql);
      db.prepare(SQL.schemaVersionInsert).run(m.version, m.name);
    }).immediate();
  }
  return latest;
}

/**
 * Observations are written in batches: one transaction per row cost a WAL commit per request. A batch
 * commits when it holds OBSERVATION_BATCH rows, when its first row is OBSERVATION_BATCH_MS old (a timer,
 * and checked on every add while the event loop is busy), before anything reads the store, when the
 * run finishes, when the store closes and when the process exits (a forced exit included). A kill -9
 * loses at most the last batch, bounded by both; `rgate run --resume` makes those requests again.
 */
export const OBSERVATION_BATCH = 64;
export const OBSERVATION_BATCH_MS = 250;

/** An observation waiting for the next batch, with the run it belongs to. */
type PendingObservation = { runId: string; obs: Observation };

/** A batch's rows are written in packs of at most this many bodies (an import's, at once). */
const PACK_BODIES = 1024;

/** Stores with rows waiting, flushed by one 'exit' listener (not one listener per store). */
const unflushed = new Set<SqliteRunStore>();
let exitHook = false;
function flushAllOnExit(): void {
  for (const s of [...unflushed]) {
    try {
      s.flush();
    } catch {
      // the process is exiting: an unwritable history cannot be reported any more
    }
  }
}

/** The run history in one SQLite file (WAL, busy timeout), safe for several rgate processes at once. */
export class SqliteRunStore implements RunStore {
  readonly location: string;
  /** what the store reads back, checked and naming its runs (run-record.ts) */
  private readonly read: ReturnType<typeof storedReader>;
  private readonly db: Database.Database;
  private readonly insertObs: Database.Statement;
  private readonly insertPack: Database.Statement;
  /** the bodies each run being written has stored (observation-packs.ts), loaded on its first write */
  private readonly bodies = new Map<string, RunBodies>();
  private pending: PendingObservation[] = [];
  private pendingSince = 0;
  private timer: NodeJS.Timeout | null = null;
  /** a flush the timer attempted and failed, thrown to the next caller that writes or reads */
  private failure: unknown = null;
  private readonly batch: number;
  private readonly batchMs: number;

  /** `opts`: the batch bounds (tests set them; rgate uses the defaults above) */
  constructor(path: string, opts: { batch?: number; batchMs?: number } = {}) {
    this.location = path;
    this.read = storedReader(path);
    this.batch = opts.batch ?? OBSERVATION_BATCH;
    this.batchMs = opts.batchMs ?? OBSERVATION_BATCH_MS;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    try {
      this.db = new Database(path, { timeout: 15_000 });
      // a new file only (SQLite takes it before the first table): the pages a finished run's merged
      // packs free are given back to the file system (finishRun); older files keep their mode. Not
      // set again on a file that has pages: the pragma writes its header, and readers leave it as is
      if (this.db.pragma('page_count', { simple: true }) === 0) this.db.pragma('auto_vacuum = INCREMENTAL');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('busy_timeout = 15000');
      migrate(this.db);
      this.insertObs = this.db.prepare(
        'INSERT OR REPLACE INTO observations (run_id, replay, query_id, latency_ms, pack, slot, json) VALUES (?, ?, ?, ?, ?, ?, NULL)',
      );
      this.insertPack = this.db.prepare(
        'INSERT OR REPLACE INTO observation_packs (run_id, pack, bodies) VALUES (?, ?, ?)',
      );
    } catch (e) {
      throw unusableStore(path, e);
    }
  }

  beginRun(meta: RunMeta): void {
    this.flush();
    const { columns, values } = runInsert(meta);
    this.db.prepare(insertRunSql(columns, values.length)).run(...values);
  }

  findRunByContentKey(key: string): RunRow | undefined {
    this.flush();
    const r = this.db.prepare(SQL.runByContentKey).get(key) as RunRecord | undefined;
    return r && this.read.row(r);
  }

  resumeRun(runId: string, owner?: RunOwner): void {
    this.flush();
    const changed = this.db
      .prepare(SQL.runResume)
      .run(owner === undefined ? null : JSON.stringify(owner), runId).changes;
    if (changed === 0) throw new RgateError('usage', `no run ${runId} in ${this.location}`);
  }

  addObservation(runId: string, obs: Observation): void {
    this.rethrow();
    const row = { runId, obs };
    if (this.pending.length === 0) {
      this.pendingSince = performance.now();
      this.timer = setTimeout(() => this.flushFromTimer(), this.batchMs).unref();
      unflushed.add(this);
      if (!exitHook) {
        exitHook = true;
        process.on('exit', flushAllOnExit);
      }
    }
    this.pending.push(row);
    if (this.pending.length >= this.batch || performance.now() - this.pendingSince >= this.batchMs) {
      this.flush();
    }
  }

  /** Commit the observations waiting, in one transaction (see OBSERVATION_BATCH). */
  flush(): void {
    this.rethrow();
    if (this.pending.length === 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.writeTransaction(() => this.writeRows(rows));
    this.pending = [];
    unflushed.delete(this);
  }

  /**
   * A write transaction (immediate). When it rolls back, the bodies known stored are forgotten: the
   * packs it wrote are gone, and each run's are read again from the file on its next write.
   */
  private writeTransaction<T>(work: () => T): T {
    try {
      return this.db.transaction(work).immediate();
    } catch (e) {
      this.bodies.clear();
      throw e;
    }
  }

  /** The rows of a batch, each run's new bodies in packs; the caller holds the transaction. */
  private writeRows(rows: readonly PendingObservation[]): void {
    const byRun = new Map<string, Observation[]>();
    for (const r of rows) {
      let list = byRun.get(r.runId);
      if (!list) byRun.set(r.runId, (list = []));
      list.push(r.obs);
    }
    for (const [runId, list] of byRun) {
      for (let i = 0; i < list.length; i += PACK_BODIES)
        this.writeBatch(runId, list.slice(i, i + PACK_BODIES));
    }
  }

  private writeBatch(runId: string, list: readonly Observation[]): void {
    const { places, pack } = this.runBodies(runId).place(list.map(observationBody));
    if (pack) this.insertPack.run(runId, pack.pack, pack.bodies);
    list.forEach((o, i) => {
      const at = places[i]!;
      this.insertObs.run(runId, o.replay, o.query_id, o.latency_ms ?? null, at.pack, at.slot);
    });
  }

  private runBodies(runId: string): RunBodies {
    let known = this.bodies.get(runId);
    if (!known) {
      known = new RunBodies(this.packsOf(runId));
      this.bodies.set(runId, known);
    }
    return known;
  }

  private packsOf(runId: string): { pack: number; bodies: Buffer }[] {
    return this.db
      .prepare('SELECT pack, bodies FROM observation_packs WHERE run_id = ? ORDER BY pack')
      .all(runId) as { pack: number; bodies: Buffer }[];
  }

  private flushFromTimer(): void {
    try {
      this.flush();
    } catch (e) {
      this.failure = e;
    }
  }

  private rethrow(): void {
    if (this.failure === null) return;
    const e = this.failure;
    this.failure = null;
    throw e;
  }

  finishRun(runId: string, result: RunResult): void {
    this.rethrow();
    const rows = this.pending;
    this.writeTransaction(() => {
      this.writeRows(rows);
      this.writeResult(runId, result);
      this.mergeRunPacks(runId);
    });
    this.dropPending();
    this.bodies.delete(runId);
    this.giveBackPages();
  }

  /**
   * A finished run's packs joined (observation-packs.ts mergePacks) and its rows pointed into the
   * merged ones; the caller holds the transaction. While the run goes, each batch's pack is written
   * on its own (kill -9 loses at most a batch); once it is finished nothing is added to it.
   */
  private mergeRunPacks(runId: string): void {
    const merged = mergePacks(this.packsOf(runId));
    if (!merged) return;
    // the old packs' pages are freed first, for the merged packs to reuse
    this.db.prepare('DELETE FROM observation_packs WHERE run_id = ?').run(runId);
    for (const p of merged.packs) this.insertPack.run(runId, p.pack, p.bodies);
    const where = Object.fromEntries(merged.moved.map((m) => [m.from, [m.pack, m.offset]]));
    this.db
      .prepare(
        `UPDATE observations SET
           slot = slot + json_extract(@moved, '$."' || pack || '"[1]'),
           pack = json_extract(@moved, '$."' || pack || '"[0]')
         WHERE run_id = @run AND pack IS NOT NULL`,
      )
      .run({ moved: JSON.stringify(where), run: runId });
  }

  /** Free pages back to the file system: a file made with auto_vacuum = INCREMENTAL only. */
  private giveBackPages(): void {
    try {
      this.db.pragma('incremental_vacuum');
    } catch {
      // another process holds the write lock past the busy timeout: the run is stored all the same,
      // and the pages stay free in the file until the next run's end gives them back
    }
  }

  private dropPending(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
    unflushed.delete(this);
  }

  importRun(run: RunImport): ImportOutcome {
    this.flush();
    const digest = importDigest(run);
    return this.writeTransaction((): ImportOutcome => {
      const stored = this.db.prepare(SQL.runImportDigest).get(run.meta.run_id) as
        { import_sha256: string | null } | undefined;
      if (stored) {
        if (stored.import_sha256 === digest) return 'exists';
        throw importConflict(run.meta.run_id, this.location);
      }
      this.beginRun(run.meta);
      this.db.prepare('UPDATE runs SET import_sha256 = ? WHERE run_id = ?').run(digest, run.meta.run_id);
      this.writeRows(run.observations.map((obs) => ({ runId: run.meta.run_id, obs })));
      this.writeResult(run.meta.run_id, run.result);
      this.bodies.delete(run.meta.run_id);
      return 'stored';
    });
  }

  /** status, report, measures and verdict of a finished run; the caller holds the transaction */
  private writeResult(runId: string, result: RunResult): void {
    const insertMeasure = this.db.prepare(
      'INSERT OR REPLACE INTO measures (run_id, metric_id, kind, numerator, denominator, value, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.db
      .prepare(SQL.runFinish)
      .run(
        result.status,
        result.finished_at,
        result.report === undefined ? null : packStoredReport(result.report),
        runId,
      );
    for (const m of result.metrics) {
      const { num, den, value } = measureColumns(m);
      insertMeasure.run(runId, m.id, m.value.kind, num, den, value, JSON.stringify(m));
    }
    if (result.gate_id && result.verdict) {
      this.db
        .prepare('INSERT OR REPLACE INTO verdicts (run_id, gate_id, verdict) VALUES (?, ?, ?)')
        .run(runId, result.gate_id, verdictAsStored(result.gate_id, result.verdict));
    }
  }

  getRun(runId: string): RunRow | undefined {
    this.flush();
    const r = this.db.prepare(SQL.runById).get(runId) as RunRecord | undefined;
    return r && this.read.row(r);
  }

  listRuns(filter: RunListFilter = {}): RunRow[] {
    this.flush();
    const args: unknown[] = [];
    const param = (v: string | number) => (args.push(v), '?');
    const where = runListWhere(filter, param);
    const order = runListOrder(filter, param);
    const rows = this.db
      .prepare(`${RUN_SELECT} WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...args, filter.limit ?? -1, filter.offset ?? 0) as RunRecord[];
    return startingAt(rows, filter.from).map((r) => this.read.row(r));
  }

  summarizeRuns(filter: Pick<RunListFilter, 'suite' | 'idPrefix'> = {}): RunsSummary {
    this.flush();
    const args: unknown[] = [];
    const where = runListWhere(filter, (v) => (args.push(v), '?'));
    const { n } = this.db.prepare(runCountSql(where)).get(...args) as {
      n: number;
    };
    const newest = this.db
      .prepare(
        `SELECT r.run_id, r.suite, r.started_at, v.verdict FROM runs r LEFT JOIN verdicts v ON v.run_id = r.run_id
         WHERE ${where} ORDER BY r.started_at DESC, r.run_id DESC LIMIT 1`,
      )
      .get(...args) as RunsSummary['newest'] | undefined;
    return { run_count: n, newest: newest ?? null };
  }

  runFacets(): RunFacets {
    this.flush();
    const column = (c: 'suite' | 'git_branch') =>
      (this.db.prepare(facetSql(c)).all() as { v: string }[])
        .map((r) => r.v)
        // the order every listing of names uses (SQL's byte order differs above the BMP)
        .sort(compareCodeUnits);
    return { suites: column('suite'), branches: column('git_branch') };
  }

  getObservations(runId: string): Observation[] {
    this.flush();
    const rows = this.db
      .prepare(
        'SELECT replay, latency_ms, pack, slot, json FROM observations WHERE run_id = ? ORDER BY replay, query_id',
      )
      .all(runId) as ObservationRecord[];
    return this.read.observations(rowsWithBodies(rows, this.packsOf(runId)), runId);
  }

  getMetrics(runId: string): MetricEntry[] {
    this.flush();
    const rows = this.db
      .prepare('SELECT json FROM measures WHERE run_id = ? ORDER BY metric_id')
      .all(runId) as { json: string }[];
    return this.read.metrics(rows, runId);
  }

  getMetricsOf(runIds: readonly string[]): MetricEntry[][] {
    this.flush();
    // the ids travel as one JSON array: one statement, whatever their number. A run's measures
    // come as one array (json_valid: each row RFC 8259 text, as JSON.parse reads it; a BLOB is
    // never taken for text), else row by row below
    const lists = this.db
      .prepare(
        `SELECT run_id, COUNT(*) AS n, SUM(typeof(json) = 'text' AND json_valid(json)) = COUNT(*) AS ok,
                '[' || group_concat(json, ',' ORDER BY metric_id) || ']' AS list
         FROM measures WHERE run_id IN (SELECT value FROM json_each(?)) GROUP BY run_id`,
      )
      .all(JSON.stringify(runIds)) as { run_id: string; n: number; ok: number; list: string }[];
    const fast = this.read.metricLists(lists, runIds);
    if (fast) return fast;
    const rows = this.db
      .prepare(
        'SELECT run_id, json FROM measures WHERE run_id IN (SELECT value FROM json_each(?)) ORDER BY run_id, metric_id',
      )
      .all(JSON.stringify(runIds)) as { run_id: string; json: string }[];
    return this.read.metricsOf(rows, runIds);
  }

  getReport(runId: string): unknown {
    this.flush();
    const r = this.db.prepare(SQL.runReport).get(runId) as
      { report_json: string | Buffer | null } | undefined;
    return this.read.report(r?.report_json, runId);
  }

  setBaseline(suite: string, runId: string, note?: string): void {
    this.flush();
    this.db
      .prepare('INSERT OR REPLACE INTO baselines (suite, run_id, note) VALUES (?, ?, ?)')
      .run(suite, runId, note ?? null);
  }

  getBaseline(suite: string): { run_id: string; note: string | null } | undefined {
    return this.db.prepare(SQL.baseline).get(suite) as { run_id: string; note: string | null } | undefined;
  }

  saveCompareSession(row: CompareSessionRow, document: unknown): unknown {
    const kept = this.db
      .prepare(
        'INSERT INTO compare_sessions (session_id, suite, created_at, kind, variant_count, summary, json) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING',
      )
      .run(
        row.session_id,
        row.suite,
        row.created_at,
        row.kind,
        row.variant_count,
        row.summary,
        JSON.stringify(document),
      );
    return kept.changes === 1 ? undefined : this.getCompareSession(row.session_id);
  }

  listCompareSessions(filter: { suite?: string; limit?: number } = {}): CompareSessionRow[] {
    const where = filter.suite !== undefined ? 'WHERE suite = ?' : '';
    const args: unknown[] = filter.suite !== undefined ? [filter.suite] : [];
    return this.db
      .prepare(
        `SELECT session_id, suite, created_at, kind, variant_count, summary FROM compare_sessions ${where} ORDER BY created_at DESC, session_id DESC LIMIT ?`,
      )
      .all(...args, filter.limit ?? -1) as CompareSessionRow[];
  }

  getCompareSession(sessionId: string): unknown {
    const r = this.db.prepare(SQL.compareSession).get(sessionId) as { json: string } | undefined;
    return r ? JSON.parse(r.json) : undefined;
  }

  close(): void {
    if (this.db.open) {
      try {
        this.flush();
      } finally {
        this.dropPending();
        this.db.close();
      }
    }
  }
}

/**
 * SQLite's own codes for a file that is not a usable history (not a database, damaged, a folder,
 * unreadable) become an input error naming the file; anything else stays internal.
 */
function unusableStore(path: string, e: unknown): unknown {
  const code = (e as { code?: string }).code ?? '';
  const why: Record<string, string> = {
    SQLITE_NOTADB: 'is not an SQLite database',
    SQLITE_CORRUPT: 'is a damaged SQLite database',
    SQLITE_CANTOPEN: 'cannot be opened (a folder, or no permission)',
    SQLITE_READONLY: 'is read-only',
    SQLITE_PERM: 'cannot be opened (no permission)',
  };
  const reason = why[code] ?? (code.startsWith('SQLITE_CORRUPT') ? why.SQLITE_CORRUPT : undefined);
  if (!reason) return e;
  return new RgateError(
    'input_invalid',
    `run history ${path} ${reason} (${(e as Error).message})`,
    'point --store at another file, or move this one aside to start a new history',
  );
}
