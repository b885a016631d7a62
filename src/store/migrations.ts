/**
 * Numbered migrations. Each is applied once, inside one transaction together with the bump of
 * schema_version, so a half-applied schema cannot exist. Never edit a shipped migration: add one.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'runs, observations, measures, verdicts, baselines',
    sql: `
      CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        suite TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL CHECK (status IN ('running','complete','interrupted','failed')),
        artifacts_json TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        report_json TEXT
      );
      CREATE INDEX runs_suite ON runs (suite, started_at);
      CREATE TABLE observations (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        replay INTEGER NOT NULL,
        query_id TEXT NOT NULL,
        ok INTEGER NOT NULL,
        fingerprint TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (run_id, replay, query_id)
      );
      CREATE TABLE measures (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        metric_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        numerator REAL,
        denominator REAL,
        value REAL,
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
  },
  {
    version: 2,
    name: 'compare sessions',
    sql: `
      CREATE TABLE compare_sessions (
        session_id TEXT PRIMARY KEY,
        suite TEXT NOT NULL,
        created_at TEXT NOT NULL,
        kind TEXT NOT NULL,
        variant_count INTEGER NOT NULL,
        summary TEXT NOT NULL,
        json TEXT NOT NULL
      );
      CREATE INDEX compare_sessions_suite ON compare_sessions (suite, created_at);
    `,
  },
  {
    version: 3,
    name: 'run plan and owner (resume, abandoned runs)',
    sql: `
      ALTER TABLE runs ADD COLUMN plan_json TEXT;
      ALTER TABLE runs ADD COLUMN owner_json TEXT;
    `,
  },
  {
    version: 4,
    name: 'content key (a merge of the same shards is one run)',
    sql: `
      ALTER TABLE runs ADD COLUMN content_key TEXT;
      CREATE UNIQUE INDEX runs_content_key ON runs (content_key) WHERE content_key IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'imported runs (an upload stored whole, idempotent by run id)',
    sql: `
      ALTER TABLE runs ADD COLUMN import_sha256 TEXT;
    `,
  },
  {
    version: 6,
    name: 'git commit and branch of a run (uploads from CI)',
    sql: `
      ALTER TABLE runs ADD COLUMN git_commit TEXT;
      ALTER TABLE runs ADD COLUMN git_branch TEXT;
    `,
  },
  {
    version: 7,
    name: 'comparison variants (a run of a compare session is not nightly history)',
    sql: `
      ALTER TABLE runs ADD COLUMN compare_session TEXT;
    `,
  },
  {
    version: 8,
    name: 'verdict NONE (a run no gate judged), and the no-gate runs stored as PASS read as NONE',
    // SQLite cannot alter a CHECK: the table is rebuilt, rows copied
    sql: `
      CREATE TABLE verdicts_v8 (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        gate_id TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('PASS','WATCH','FAIL','NONE')),
        PRIMARY KEY (run_id, gate_id)
      );
      INSERT INTO verdicts_v8 (run_id, gate_id, verdict)
        SELECT run_id, gate_id, CASE WHEN gate_id = 'measures-only' THEN 'NONE' ELSE verdict END FROM verdicts;
      DROP TABLE verdicts;
      ALTER TABLE verdicts_v8 RENAME TO verdicts;
    `,
  },
  {
    version: 9,
    name: 'observation bodies stored once per run, in packs (observation-packs.ts)',
    // rebuilt WITHOUT ROWID: the key is the table, not a copy of it in an index beside the rows. The ok
    // and fingerprint columns go (nothing queried them; both are in the body); rows of older versions
    // keep their whole observation in json, and new rows point into a pack instead.
    sql: `
      CREATE TABLE observation_packs (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        pack INTEGER NOT NULL,
        bodies BLOB NOT NULL,
        PRIMARY KEY (run_id, pack)
      ) WITHOUT ROWID;
      CREATE TABLE observations_v9 (
        run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
        replay INTEGER NOT NULL,
        query_id TEXT NOT NULL,
        latency_ms REAL,
        pack INTEGER,
        slot INTEGER,
        json BLOB,
        PRIMARY KEY (run_id, replay, query_id)
      ) WITHOUT ROWID;
      INSERT INTO observations_v9 (run_id, replay, query_id, json)
        SELECT run_id, replay, query_id, json FROM observations;
      DROP TABLE observations;
      ALTER TABLE observations_v9 RENAME TO observations;
      `,
  },
  {
    version: 10,
    name: 'listing indexes (the runs list and its filters read no run row they do not show)',
    // git_branch and compare_session were added after report_json: in SQLite a row scan reads past
    // every run's report (overflow pages) to reach them, ~90 ms a filter list on 1,000 runs of
    // 40 KB reports. These indexes answer the listing's order and the facets without the rows.
    sql: `
      CREATE INDEX runs_listing ON runs (compare_session, started_at, run_id);
      CREATE INDEX runs_listing_suite ON runs (compare_session, suite, started_at, run_id);
      CREATE INDEX runs_listing_branch ON runs (compare_session, git_branch, started_at, run_id);
    `,
  },
  {
    version: 11,
    name: 'pull request, base branch and merge-base commit of a run (a branch compared with its base)',
    sql: `
      ALTER TABLE runs ADD COLUMN git_pr INTEGER;
      ALTER TABLE runs ADD COLUMN git_base_branch TEXT;
      ALTER TABLE runs ADD COLUMN git_merge_base TEXT;
    `,
  },
];
