import type { TokenRecord } from './tokens.js';

/** A project on the server: its runs live in a store of their own. */
export interface ProjectInfo {
  /** what URLs and the CLI's --project name: `^[a-z0-9][a-z0-9-]{0,59}$` */
  slug: string;
  name: string;
  /** anyone may read its runs and pages; otherwise a read (or upload) token is needed */
  public_read: boolean;
  created_at: string;
}

/** A token without its digest: what listing the tokens of a project shows. */
export type TokenInfo = Omit<TokenRecord, 'sha256'>;

/** The server's own records, apart from every project's runs: projects and their tokens (hashed). */
export interface Registry {
  readonly location: string;
  /** false when the slug is taken (nothing written) */
  createProject(project: ProjectInfo, firstToken: TokenRecord): Promise<boolean>;
  getProject(slug: string): Promise<ProjectInfo | undefined>;
  /** ordered by slug */
  listProjects(): Promise<ProjectInfo[]>;
  addToken(token: TokenRecord): Promise<void>;
  /** false when the project has no such token */
  revokeToken(project: string, id: string, at: string): Promise<boolean>;
  /** the token with this sha256, revoked or not */
  findToken(sha256: string): Promise<TokenRecord | undefined>;
  /** ordered by created_at, then id */
  listTokens(project: string): Promise<TokenInfo[]>;
  close(): Promise<void>;
}

/** The registry's tables; the same in SQLite and PostgreSQL (plain types only). */
export const REGISTRY_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE projects (
        slug TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        public_read INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        project TEXT NOT NULL REFERENCES projects(slug),
        kind TEXT NOT NULL CHECK (kind IN ('upload', 'read')),
        sha256 TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX tokens_project ON tokens (project, created_at);
    `,
  },
];

export interface ProjectRecord {
  slug: string;
  name: string;
  public_read: number;
  created_at: string;
}

export function toProject(r: ProjectRecord): ProjectInfo {
  return { slug: r.slug, name: r.name, public_read: Number(r.public_read) === 1, created_at: r.created_at };
}

export function toTokenInfo(t: TokenRecord): TokenInfo {
  return { id: t.id, project: t.project, kind: t.kind, created_at: t.created_at, revoked_at: t.revoked_at };
}
