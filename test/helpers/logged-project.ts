import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './dist.js';
import { writeTinySet } from './tiny-set.js';

/**
 * Projects whose one suite calls a per-query CLI that logs every call (test/sut/runner/logged.mjs):
 * what the run-lifecycle tests (SIGKILL and resume, shards and merge) count requests with.
 */
const SUT = join(REPO, 'test', 'sut', 'runner', 'logged.mjs');

/**
 * A project with one suite: 12 queries x 3 replays against a per-query CLI that logs its calls; with
 * `holdAfter`, calls after that many hold their answer while the project's `hold` file exists.
 */
export function loggedProject(
  tmp: string,
  name: string,
  queries = 12,
  holdAfter?: number,
): { dir: string; log: string; hold: string } {
  const dir = join(tmp, name);
  writeTinySet(join(dir, 'fixtures', 'tiny'), {
    queries,
    queryId: (i) => `q${String(i + 1).padStart(2, '0')}`,
    frozenOn: '2026-11-23',
  });
  const log = join(dir, 'calls.log');
  const hold = join(dir, 'hold');
  const held = holdAfter === undefined ? {} : { SUT_HOLD: hold, SUT_HOLD_AFTER: String(holdAfter) };
  writeFileSync(
    join(dir, 'rgate.config.json'),
    JSON.stringify({
      suites: {
        tiny: {
          fixture: 'tiny',
          system: {
            type: 'command',
            argv: [process.execPath, SUT, '{query_id}', '{query}'],
            contract: 'rgate',
            env: { SUT_LOG: log, ...held },
          },
          gate: null,
          replays: 3,
        },
      },
    }),
  );
  writeFileSync(log, '');
  if (holdAfter !== undefined) writeFileSync(hold, '');
  return { dir, log, hold };
}

/** Observations committed to the history file, as another process reading it sees them. */
export function storedObservations(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true, timeout: 5_000 });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM observations').get() as { n: number }).n;
  } catch {
    return 0; // not migrated yet
  } finally {
    db.close();
  }
}

export const calls = (log: string): number => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;

/** The report without the sections that may differ between runs of the same inputs. */
export function deterministicPart(file: string): string {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete r.environment;
  delete r.timing;
  return JSON.stringify(r);
}
