import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RgateError } from '../src/core/errors.js';
import { PROJECT_SLUG_PATTERN } from '../src/documents/index.js';
import { asAsync, type AsyncRunStore } from '../src/store/async-store.js';
import { PgRunStore, redactDbUrl } from '../src/store/pg-store.js';
import { SqliteRunStore } from '../src/store/sqlite-store.js';
import type { ProjectInfo, Registry } from './registry.js';
import { PgRegistry } from './registry-pg.js';
import { SqliteRegistry } from './registry-sqlite.js';

/** A project slug (the new-project document's pattern): what a URL may name as a project. */
export const PROJECT_SLUG = new RegExp(PROJECT_SLUG_PATTERN);

/**
 * Everything `rgate server` keeps: the registry (projects, hashed tokens) and one run store per
 * project, each the unchanged run store contract, so a page or a history view built over an
 * AsyncRunStore serves a project as it serves a local history. Projects never share a table.
 */
export interface ServerStores {
  /** where, for the start-up line (never a password) */
  readonly location: string;
  readonly registry: Registry;
  listProjects(): Promise<ProjectInfo[]>;
  getProject(slug: string): Promise<ProjectInfo | undefined>;
  /** the project's run store, opened on first use and kept; undefined when there is no such project */
  projectStore(slug: string): Promise<AsyncRunStore | undefined>;
  close(): Promise<void>;
}

/** The default data directory of `rgate server` (SQLite). */
export const DEFAULT_DATA_DIR = join('.rgate', 'server');

export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//.test(db);
}

/**
 * Open the server's stores: `postgres://...` keeps the registry in schema `rgate_server` and each
 * project in schema `p_<slug>` (dashes as `_`) of that database; anything else is a data directory
 * with `server.sqlite` (the registry) and `projects/<slug>.sqlite`. `given` is `db` as the user wrote
 * it (before it was resolved against a working directory), for messages.
 */
export async function openServerStores(db: string, given: string = db): Promise<ServerStores> {
  if (isPostgresUrl(db)) {
    const location = redactDbUrl(db);
    const registry = await PgRegistry.open(db, location).catch((e: unknown) => {
      throw new RgateError(
        'input_invalid',
        `cannot open the server's PostgreSQL database ${location}: ${(e as Error).message.replace(db, location)}`,
        'check --db (postgres://user@host:5432/database; the password may come from PGPASSWORD)',
      );
    });
    return withProjects(location, registry, (slug) =>
      PgRunStore.open(db, { schema: `p_${slug.replace(/-/g, '_')}`, max: 5 }),
    );
  }
  if (/\.(sqlite|db)$/i.test(db)) {
    throw new RgateError(
      'usage',
      `--db ${given}: rgate server keeps a data directory (server.sqlite and one file per project), not one file`,
      `name a directory, e.g. --db ${given.replace(/\.(sqlite|db)$/i, '')}, or a postgres:// URL`,
    );
  }
  const dir = resolve(db);
  dataDirectory(given, dir);
  const registry = new SqliteRegistry(join(dir, 'server.sqlite'));
  return withProjects(dir, registry, (slug) =>
    Promise.resolve(asAsync(new SqliteRunStore(join(dir, 'projects', `${slug}.sqlite`)))),
  );
}

/**
 * The data directory made (or found) before anything is opened in it: a regular file, or a path
 * through one, is the user's mistake, said as such (not an internal `EEXIST ... mkdir`).
 */
function dataDirectory(given: string, dir: string): void {
  const usage = (why: string) =>
    new RgateError(
      'usage',
      `--db ${given}: ${why}`,
      "name a directory for the server's data (made if missing: server.sqlite and projects/ go in it), or a postgres:// URL",
    );
  let isDir: boolean | undefined;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // missing: made below
  }
  if (isDir === false) throw usage('is a file, not a directory');
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (/^(EEXIST|ENOTDIR|EACCES|EPERM|EROFS)$/.test(code)) {
      throw usage(`cannot make the data directory there (${code}: a path through a file, or no permission)`);
    }
    throw e;
  }
}

function withProjects(
  location: string,
  registry: Registry,
  open: (slug: string) => Promise<AsyncRunStore>,
): ServerStores {
  const opened = new Map<string, Promise<AsyncRunStore>>();
  return {
    location,
    registry,
    listProjects: () => registry.listProjects(),
    // a name no project can have is no project, and reaches no query (PostgreSQL refuses a NUL in text)
    getProject: (slug) => (PROJECT_SLUG.test(slug) ? registry.getProject(slug) : Promise.resolve(undefined)),
    async projectStore(slug) {
      if (!PROJECT_SLUG.test(slug) || !(await registry.getProject(slug))) return undefined;
      let store = opened.get(slug);
      if (!store) {
        store = open(slug);
        opened.set(slug, store);
        // a store that failed to open (the database was restarting) is opened again next time
        store.catch(() => opened.delete(slug));
      }
      return store;
    },
    async close() {
      const stores = await Promise.allSettled([...opened.values()]);
      for (const s of stores) if (s.status === 'fulfilled') await s.value.close();
      await registry.close();
    },
  };
}
