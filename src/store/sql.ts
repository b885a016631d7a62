/**
 * The statements the SQLite and PostgreSQL stores share, written once with `?` placeholders
 * (SQLite's; `numbered` makes PostgreSQL's `$1, $2, ...`). Only what both engines run the same way is
 * here: upserts (SQLite's INSERT OR REPLACE, PostgreSQL's ON CONFLICT) and orderings (PostgreSQL's
 * COLLATE "C") stay in each store. Counts are cast to INTEGER: pg returns a bigint COUNT as a string.
 */

/** A run row as RunRecord reads it, with its verdict and observation count; callers add WHERE. */
export const RUN_SELECT = `
  SELECT r.run_id, r.suite, r.started_at, r.finished_at, r.status, r.artifacts_json, r.settings_json,
         r.plan_json, r.owner_json, r.content_key, r.git_commit, r.git_branch, r.compare_session,
         r.git_pr, r.git_base_branch, r.git_merge_base,
         v.gate_id, v.verdict,
         CAST((SELECT COUNT(*) FROM observations o WHERE o.run_id = r.run_id) AS INTEGER) AS observation_count
  FROM runs r LEFT JOIN verdicts v ON v.run_id = r.run_id`;

const STATEMENTS = {
  schemaVersionTable:
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  schemaVersion: 'SELECT CAST(COALESCE(MAX(version), 0) AS INTEGER) AS v FROM schema_version',
  schemaVersionInsert: 'INSERT INTO schema_version (version, name) VALUES (?, ?)',
  runByContentKey: `${RUN_SELECT} WHERE r.content_key = ?`,
  runById: `${RUN_SELECT} WHERE r.run_id = ?`,
  runResume: `UPDATE runs SET status = 'running', finished_at = NULL, owner_json = ? WHERE run_id = ?`,
  runFinish: 'UPDATE runs SET status = ?, finished_at = ?, report_json = ? WHERE run_id = ?',
  runImportDigest: 'SELECT import_sha256 FROM runs WHERE run_id = ?',
  runReport: 'SELECT report_json FROM runs WHERE run_id = ?',
  baseline: 'SELECT run_id, note FROM baselines WHERE suite = ?',
  compareSession: 'SELECT json FROM compare_sessions WHERE session_id = ?',
} as const;

type Statements = Readonly<Record<keyof typeof STATEMENTS, string>>;

/** `?` -> `$1, $2, ...` in order: PostgreSQL's placeholders (no statement here has a `?` in a literal). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export const SQLITE_SQL: Statements = STATEMENTS;
export const PG_SQL: Statements = Object.fromEntries(
  Object.entries(STATEMENTS).map(([k, v]) => [k, numbered(v)]),
) as Statements;

/** A new run's row: status 'running' and the columns of runInsert (run-record.ts). */
export function insertRunSql(columns: string, count: number): string {
  return `INSERT INTO runs (status, ${columns}) VALUES ('running', ${Array(count).fill('?').join(', ')})`;
}

/** How many runs match `where` (runListWhere's, with the store's placeholders). */
export function runCountSql(where: string): string {
  return `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM runs r WHERE ${where}`;
}

/** The distinct names of a run column (suite or branch) outside comparison sessions' runs. */
export function facetSql(column: 'suite' | 'git_branch'): string {
  return `SELECT DISTINCT ${column} AS v FROM runs WHERE compare_session IS NULL AND ${column} IS NOT NULL`;
}
