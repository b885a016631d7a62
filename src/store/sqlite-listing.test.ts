import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runListWhere } from './run-record.js';
import { facetSql, RUN_SELECT } from './sql.js';
import { SqliteRunStore } from './sqlite-store.js';
import type { RunListFilter } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-listing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's plan of a statement, one line a step. */
function plan(db: Database.Database, sql: string, args: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

/**
 * The runs list and its filter lists read no run row they do not show: the columns they filter on
 * (git_branch, compare_session) were added after report_json, so a scan of the runs table reads past
 * every stored report to reach them (~90 ms a list on 1,000 runs of 40 KB reports). The plans must use
 * an index for the order and the filter, never scan `runs` or sort it in a temporary b-tree.
 */
describe('the listing statements over a store at the current schema', () => {
  const file = join(dir, 'history.sqlite');
  new SqliteRunStore(file).close();
  const db = new Database(file, { readonly: true });
  afterAll(() => db.close());

  const filters: RunListFilter[] = [
    { limit: 500 },
    { suite: 'nightly', limit: 500 },
    { branch: 'main', limit: 50 },
    { suite: 'nightly', from: 'run-1', limit: 51 },
  ];
  it.each(filters.map((f) => [JSON.stringify(f), f] as const))(
    'listRuns %s: the order from an index',
    (_, f) => {
      const args: unknown[] = [];
      const where = runListWhere(f, (v) => (args.push(v), '?'));
      const steps = plan(
        db,
        `${RUN_SELECT} WHERE ${where} ORDER BY r.started_at DESC, r.run_id DESC LIMIT ?`,
        [...args, f.limit],
      );
      expect(
        steps.filter((s) => /^SCAN r\b|TEMP B-TREE/.test(s)),
        steps.join('\n'),
      ).toEqual([]);
    },
  );

  it.each(['suite', 'git_branch'] as const)('the %s filter list: from a covering index alone', (column) => {
    const steps = plan(db, facetSql(column), []);
    expect(steps, steps.join('\n')).toEqual([expect.stringMatching(/USING COVERING INDEX runs_listing/)]);
  });
});
