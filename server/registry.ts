import type { TokenRecord } from './tokens.js';

/** A project on the server: its runs live in a store of their own. */
export interface ProjectInfo {
  /** what URLs and the CLI's --project name: `^[a-z0-9][a-z0-9-]{0,59}$` */
  slug: string;
  name: string;
  /** anyone may read its runs and pages; otherwise a read (or upload) token is needed */
  public_read: boolean;
  created_at: string;
  /** the branch a pull request's run is compared with (its own base branch when the CI names one) */
  base_branch: string;
  /** links of commits, branches and PRs: a URL with `{commit}`, `{branch}`, `{pr}`; null when unset */
  repository_url: string | null;
}

/** What an admin may change of a project after creating it (PATCH /api/projects/:project). */
export type ProjectSettings = Partial<
  Pick<ProjectInfo, 'name' | 'public_read' | 'base_branch' | 'repository_url'>
>;

/** a project whose base branch was never set compares its pull requests with this one */
export const DEFAULT_BASE_BRANCH = 'main';

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
  /** the project as it now is, or undefined when there is no such project (nothing written) */
  updateProject(slug: string, settings: ProjectSettings): Promise<ProjectInfo | undefined>;
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
  {
    version: 2,
    // NULL: the project never set it (DEFAULT_BASE_BRANCH; no links)
    sql: `
      ALTER TABLE projects ADD COLUMN base_branch TEXT;
      ALTER TABLE projects ADD COLUMN repository_url TEXT;
    `,
  },
];

export interface ProjectRecord {
  slug: string;
  name: string;
  public_read: number;
  created_at: string;
  base_branch: string | null;
  repository_url: string | null;
}

export function toProject(r: ProjectRecord): ProjectInfo {
  return {
    slug: r.slug,
    name: r.name,
    public_read: Number(r.public_read) === 1,
    created_at: r.created_at,
    base_branch: r.base_branch ?? DEFAULT_BASE_BRANCH,
    repository_url: r.repository_url ?? null,
  };
}

/**
 * The SET clause and values of an update of `settings` (only the fields given), `param(i)` the i-th
 * placeholder: one statement for both registries.
 */
export function projectUpdate(
  settings: ProjectSettings,
  param: (i: number) => string,
): { set: string; values: (string | number | null)[] } {
  const pairs: [string, string | number | null][] = [];
  if (settings.name !== undefined) pairs.push(['name', settings.name]);
  if (settings.public_read !== undefined) pairs.push(['public_read', settings.public_read ? 1 : 0]);
  if (settings.base_branch !== undefined) pairs.push(['base_branch', settings.base_branch]);
  if (settings.repository_url !== undefined) pairs.push(['repository_url', settings.repository_url]);
  return {
    set: pairs.map(([c], i) => `${c} = ${param(i + 1)}`).join(', '),
    values: pairs.map(([, v]) => v),
  };
}

export function toTokenInfo(t: TokenRecord): TokenInfo {
  return { id: t.id, project: t.project, kind: t.kind, created_at: t.created_at, revoked_at: t.revoked_at };
}
