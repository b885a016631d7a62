import pg from 'pg';
import {
  projectUpdate,
  REGISTRY_MIGRATIONS,
  toProject,
  toTokenInfo,
  type ProjectInfo,
  type ProjectRecord,
  type ProjectSettings,
  type Registry,
  type TokenInfo,
} from './registry.js';
import type { TokenRecord } from './tokens.js';

/** The schema the registry lives in, apart from every project's schema (`p_<slug>`). */
export const REGISTRY_SCHEMA = 'rgate_server';
const LOCK = 0x72677372; // 'rgsr': migrating the registry, one server at a time

/** The registry in PostgreSQL, schema `rgate_server` of the server's database. */
export class PgRegistry implements Registry {
  private constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
  ) {}

  static async open(url: string, location: string): Promise<PgRegistry> {
    const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${REGISTRY_SCHEMA}` });
    // as in PgRunStore: a restart of PostgreSQL fails queries, never the process
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const c = await pool.connect().catch(async (e: unknown) => {
      await pool.end();
      throw e;
    });
    try {
      await c.query('SELECT pg_advisory_lock($1)', [LOCK]);
      try {
        await c.query(`CREATE SCHEMA IF NOT EXISTS ${REGISTRY_SCHEMA}`);
        await c.query('CREATE TABLE IF NOT EXISTS registry_version (version INTEGER PRIMARY KEY)');
        for (const m of REGISTRY_MIGRATIONS) {
          const done = await c.query('SELECT 1 FROM registry_version WHERE version = $1', [m.version]);
          if (done.rowCount) continue;
          await c.query('BEGIN');
          try {
            await c.query(m.sql);
            await c.query('INSERT INTO registry_version (version) VALUES ($1)', [m.version]);
            await c.query('COMMIT');
          } catch (e) {
            await c.query('ROLLBACK');
            throw e;
          }
        }
      } finally {
        await c.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      }
    } catch (e) {
      c.release();
      await pool.end();
      throw e;
    }
    c.release();
    return new PgRegistry(pool, `${location} (schema ${REGISTRY_SCHEMA})`);
  }

  async createProject(p: ProjectInfo, first: TokenRecord): Promise<boolean> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      try {
        const res = await c.query(
          'INSERT INTO projects (slug, name, public_read, created_at, base_branch, repository_url) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (slug) DO NOTHING',
          [p.slug, p.name, p.public_read ? 1 : 0, p.created_at, p.base_branch, p.repository_url],
        );
        if (res.rowCount === 0) {
          await c.query('ROLLBACK');
          return false;
        }
        await insertToken(c, first);
        await c.query('COMMIT');
        return true;
      } catch (e) {
        await c.query('ROLLBACK');
        throw e;
      }
    } finally {
      c.release();
    }
  }

  async getProject(slug: string): Promise<ProjectInfo | undefined> {
    const [r] = (await this.pool.query<ProjectRecord>('SELECT * FROM projects WHERE slug = $1', [slug])).rows;
    return r && toProject(r);
  }

  async listProjects(): Promise<ProjectInfo[]> {
    const rows = (await this.pool.query<ProjectRecord>('SELECT * FROM projects ORDER BY slug COLLATE "C"'))
      .rows;
    return rows.map(toProject);
  }

  async updateProject(slug: string, settings: ProjectSettings): Promise<ProjectInfo | undefined> {
    const { set, values } = projectUpdate(settings, (i) => `$${i}`);
    if (set)
      await this.pool.query(`UPDATE projects SET ${set} WHERE slug = $${values.length + 1}`, [
        ...values,
        slug,
      ]);
    return this.getProject(slug);
  }

  async addToken(t: TokenRecord): Promise<void> {
    await insertToken(this.pool, t);
  }

  async revokeToken(project: string, id: string, at: string): Promise<boolean> {
    const res = await this.pool.query(
      'UPDATE tokens SET revoked_at = COALESCE(revoked_at, $1) WHERE project = $2 AND id = $3',
      [at, project, id],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async findToken(sha256: string): Promise<TokenRecord | undefined> {
    const [r] = (await this.pool.query<TokenRecord>('SELECT * FROM tokens WHERE sha256 = $1', [sha256])).rows;
    return r && { ...r };
  }

  async listTokens(project: string): Promise<TokenInfo[]> {
    const rows = (
      await this.pool.query<TokenRecord>(
        'SELECT * FROM tokens WHERE project = $1 ORDER BY created_at COLLATE "C", id COLLATE "C"',
        [project],
      )
    ).rows;
    return rows.map(toTokenInfo);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function insertToken(c: pg.Pool | pg.PoolClient, t: TokenRecord): Promise<void> {
  await c.query(
    'INSERT INTO tokens (id, project, kind, sha256, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [t.id, t.project, t.kind, t.sha256, t.created_at, t.revoked_at],
  );
}
