import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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

/** The registry in one SQLite file beside the projects' files (`<data dir>/server.sqlite`). */
export class SqliteRegistry implements Registry {
  private readonly db: Database.Database;

  constructor(readonly location: string) {
    mkdirSync(dirname(location), { recursive: true });
    this.db = new Database(location, { timeout: 15_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec('CREATE TABLE IF NOT EXISTS registry_version (version INTEGER PRIMARY KEY)');
    for (const m of REGISTRY_MIGRATIONS) {
      this.db
        .transaction(() => {
          if (this.db.prepare('SELECT 1 FROM registry_version WHERE version = ?').get(m.version)) return;
          this.db.exec(m.sql);
          this.db.prepare('INSERT INTO registry_version (version) VALUES (?)').run(m.version);
        })
        .immediate();
    }
  }

  createProject(p: ProjectInfo, first: TokenRecord): Promise<boolean> {
    return Promise.resolve(
      this.db
        .transaction(() => {
          const inserted = this.db
            .prepare(
              'INSERT OR IGNORE INTO projects (slug, name, public_read, created_at, base_branch, repository_url) VALUES (?, ?, ?, ?, ?, ?)',
            )
            .run(
              p.slug,
              p.name,
              p.public_read ? 1 : 0,
              p.created_at,
              p.base_branch,
              p.repository_url,
            ).changes;
          if (inserted === 0) return false;
          this.insertToken(first);
          return true;
        })
        .immediate(),
    );
  }

  getProject(slug: string): Promise<ProjectInfo | undefined> {
    const r = this.db.prepare('SELECT * FROM projects WHERE slug = ?').get(slug) as ProjectRecord | undefined;
    return Promise.resolve(r && toProject(r));
  }

  listProjects(): Promise<ProjectInfo[]> {
    const rows = this.db.prepare('SELECT * FROM projects ORDER BY slug').all() as ProjectRecord[];
    return Promise.resolve(rows.map(toProject));
  }

  updateProject(slug: string, settings: ProjectSettings): Promise<ProjectInfo | undefined> {
    const { set, values } = projectUpdate(settings, () => '?');
    if (set) this.db.prepare(`UPDATE projects SET ${set} WHERE slug = ?`).run(...values, slug);
    return this.getProject(slug);
  }

  private insertToken(t: TokenRecord): void {
    this.db
      .prepare(
        'INSERT INTO tokens (id, project, kind, sha256, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(t.id, t.project, t.kind, t.sha256, t.created_at, t.revoked_at);
  }

  addToken(t: TokenRecord): Promise<void> {
    this.insertToken(t);
    return Promise.resolve();
  }

  revokeToken(project: string, id: string, at: string): Promise<boolean> {
    const changed = this.db
      .prepare('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE project = ? AND id = ?')
      .run(at, project, id).changes;
    return Promise.resolve(changed > 0);
  }

  findToken(sha256: string): Promise<TokenRecord | undefined> {
    const r = this.db.prepare('SELECT * FROM tokens WHERE sha256 = ?').get(sha256) as TokenRecord | undefined;
    return Promise.resolve(r && { ...r });
  }

  listTokens(project: string): Promise<TokenInfo[]> {
    const rows = this.db
      .prepare('SELECT * FROM tokens WHERE project = ? ORDER BY created_at, id')
      .all(project) as TokenRecord[];
    return Promise.resolve(rows.map(toTokenInfo));
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
