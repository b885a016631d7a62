/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp folder, started with pg_ctl on a Unix
 * socket in that folder (no TCP port, so parallel test files and other users of the machine never
 * collide), each store a fresh database, everything removed afterwards. As root (CI containers),
 * PostgreSQL refuses to run, so its programs run as `nobody`.
 *
 * - `RGATE_TEST_POSTGRES_URL=postgres://...`: use that server instead (databases are created in it).
 * - `RGATE_PG_BIN=<dir>`: where initdb and pg_ctl are; default Debian's /usr/lib/postgresql/<newest>/bin,
 *   then PATH.
 * - `RGATE_REQUIRE_POSTGRES=1` (set by .ci/run): no server is a failure, never a skip.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';

export interface PgCluster {
  /** a new, empty database; its connection string */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
  /** the command line that restarts the server (pg_ctl restart -m fast), for soak runs; absent for an external server */
  restartCommand?: { file: string; args: string[]; uid?: number; gid?: number };
}

function findBin(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  if (process.env.RGATE_PG_BIN) return has(process.env.RGATE_PG_BIN) ? process.env.RGATE_PG_BIN : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (has(join(debian, v, 'bin'))) return join(debian, v, 'bin');
  }
  return (process.env.PATH ?? '').split(delimiter).find((d) => d !== '' && has(d));
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. Throws when they must run. */
export function postgresUnavailable(): string | undefined {
  if (process.env.RGATE_TEST_POSTGRES_URL || findBin()) return undefined;
  const why =
    'no PostgreSQL server binary (initdb, pg_ctl) found in RGATE_PG_BIN, /usr/lib/postgresql/*/bin or PATH; apt-get install postgresql, or set RGATE_TEST_POSTGRES_URL';
  if (process.env.RGATE_REQUIRE_POSTGRES === '1') throw new Error(`RGATE_REQUIRE_POSTGRES=1 but ${why}`);
  return why;
}

/** A describe block that needs a PostgreSQL server of its own: skipped, saying why, where there is none. */
export function describeOnPostgres(title: string, body: () => void): void {
  const skip = postgresUnavailable();
  describe.skipIf(skip !== undefined)(`${title}${skip ? ` (skipped: ${skip})` : ''}`, body);
}

let serial = 0;

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

function databaseUrl(admin: string, name: string): string {
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Create databases in an existing server (RGATE_TEST_POSTGRES_URL); drop them at stop. */
function external(admin: string): PgCluster {
  const made: string[] = [];
  return {
    async createDatabase() {
      const name = `rgate_test_${process.pid}_${++serial}`;
      await withClient(admin, (c) => c.query(`CREATE DATABASE ${name}`));
      made.push(name);
      return databaseUrl(admin, name);
    },
    async stop() {
      await withClient(admin, async (c) => {
        for (const name of made) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

/** Start a cluster of its own (or use RGATE_TEST_POSTGRES_URL). Call postgresUnavailable() first. */
export async function startPgCluster(): Promise<PgCluster> {
  if (process.env.RGATE_TEST_POSTGRES_URL) return external(process.env.RGATE_TEST_POSTGRES_URL);
  const bin = findBin();
  if (!bin) throw new Error(postgresUnavailable() ?? 'no PostgreSQL binaries');
  const dir = mkdtempSync(join(tmpdir(), 'rgate-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? { uid: 65534, gid: 65534 } : {};
  if (asRoot) chownSync(dir, 65534, 65534);
  const run = (program: string, args: string[]): void => {
    const r = spawnSync(join(bin, program), args, { ...ids, encoding: 'utf8', cwd: dir });
    if (r.status !== 0) {
      throw new Error(
        `${program} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`,
      );
    }
  };
  run('initdb', ['-D', data, '-U', 'rgate', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  // socket only, in the temp folder; fsync off: a test cluster is thrown away, never recovered
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    `-k ${dir} -c listen_addresses='' -F`,
    'start',
  ]);
  const admin = `postgres://rgate@localhost/postgres?host=${encodeURIComponent(dir)}`;
  const cluster = external(admin);
  return {
    restartCommand: {
      file: join(bin, 'pg_ctl'),
      args: [
        '-D',
        data,
        '-l',
        join(dir, 'server.log'),
        '-w',
        '-m',
        'fast',
        '-o',
        `-k ${dir} -c listen_addresses='' -F`,
        'restart',
      ],
      ...ids,
    },
    createDatabase: () => cluster.createDatabase(),
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
