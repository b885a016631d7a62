import { MIGRATIONS } from './migrations.js';

/**
 * PostgreSQL's dialect of the steps that need one, by version; every other step is SQLite's own SQL
 * (src/store/migrations.ts), which PostgreSQL runs as it is. Version 1 differs: DOUBLE PRECISION
 * where SQLite's REAL is already 8 bytes (PostgreSQL's REAL is 4, it would round a numerator), BOOLEAN
 * for ok, BYTEA for the deflated observation and report documents. Never edit a shipped migration:
 * add one (and its dialect here if SQLite's SQL is not portable).
 */
const DIALECT: Readonly<Record<number, string>> = {
  1: `
      CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        suite TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL CHECK (status IN ('running','complete','interrupted','failed')),
        artifacts_json TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        report_json BYTEA
      );
      CREATE INDEX runs_suite ON runs (suite, started_at);
      CREATE TABLE observations (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        replay INTEGER NOT NULL,
        query_id TEXT NOT NULL,
        ok BOOLEAN NOT NULL,
        fingerprint TEXT NOT NULL,
        json BYTEA NOT NULL,
        PRIMARY KEY (run_id, replay, query_id)
      );
      CREATE TABLE measures (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        metric_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        numerator DOUBLE PRECISION,
        denominator DOUBLE PRECISION,
        value DOUBLE PRECISION,
        json TEXT NOT NULL,
        PRIMARY KEY (run_id, metric_id)
      );
      CREATE TABLE verdicts (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        gate_id TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('PASS','WATCH','FAIL')),
        PRIMARY KEY (run_id, gate_id)
      );
      CREATE TABLE baselines (
        suite TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(run_id),
        note TEXT
      );
    `,
  8: `
      ALTER TABLE verdicts DROP CONSTRAINT verdicts_verdict_check;
      UPDATE verdicts SET verdict = 'NONE' WHERE gate_id = 'measures-only';
      ALTER TABLE verdicts ADD CONSTRAINT verdicts_verdict_check
        CHECK (verdict IN ('PASS','WATCH','FAIL','NONE'));
    `,
  9: `
      CREATE TABLE observation_packs (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        pack INTEGER NOT NULL,
        bodies BYTEA NOT NULL,
        PRIMARY KEY (run_id, pack)
      );
      ALTER TABLE observations
        DROP COLUMN ok,
        DROP COLUMN fingerprint,
        ALTER COLUMN json DROP NOT NULL,
        ADD COLUMN latency_ms DOUBLE PRECISION,
        ADD COLUMN pack INTEGER,
        ADD COLUMN slot INTEGER;
    `,
};

/** The PostgreSQL schema: the SQLite migrations, step for step (same numbers and names), in this dialect. */
export const PG_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = MIGRATIONS.map(
  (m) => ({
    ...m,
    sql: DIALECT[m.version] ?? m.sql,
  }),
);
