import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, StringEnum } from './keywords.js';
import { UPLOAD_RUN_ID_PATTERN } from './run-upload.js';
import { VsBaseGateSchema } from './gate-result.js';

/** A project slug: lower-case words and dashes, short enough for a PostgreSQL schema name (`p_<slug>`). */
export const PROJECT_SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,59}$';

/**
 * Patterns an error message also says in words (ajv says only `must match pattern "..."`), read by
 * src/contracts' error formatter.
 */
/** A repository URL template: an http(s) URL, no spaces; `{commit}`, `{branch}`, `{pr}` are filled in per link. */
export const REPOSITORY_URL_PATTERN = '^https?://[^\\s]+$';

export const PATTERNS_IN_WORDS: ReadonlyMap<string, string> = new Map([
  [PROJECT_SLUG_PATTERN, 'lower-case letters, digits, dashes'],
  [REPOSITORY_URL_PATTERN, 'an http:// or https:// URL without spaces'],
]);

/** the branch a project's pull requests are compared with (a git branch name as CI gives it) */
const BaseBranchSchema = Type.String({ minLength: 1, maxLength: 500 });
/**
 * how the dashboard links a run's commit, branch and PR: `https://github.com/o/r/commit/{commit}`
 * (a template holds any of the three placeholders; a link needs the ones it holds)
 */
const RepositoryUrlSchema = Type.String({ minLength: 1, maxLength: 1000, pattern: REPOSITORY_URL_PATTERN });

/** What a token may do: upload runs to its project (and read it), or only read a private project. */
export const TOKEN_KINDS = ['upload', 'read'] as const;
export const TokenKindSchema = StringEnum(TOKEN_KINDS);
export type TokenKind = Static<typeof TokenKindSchema>;

const ProjectNameSchema = Type.String({ minLength: 1, maxLength: 200 });

/**
 * `POST /api/projects` (admin): a new project. `name` defaults to the slug, `public_read` to false,
 * `base_branch` to `main`, `repository_url` to none; all stay optional rather than defaulted here,
 * as the route fills them in.
 */
export const NewProjectBodySchema = Closed({
  slug: Type.String({ pattern: PROJECT_SLUG_PATTERN }),
  name: Type.Optional(ProjectNameSchema),
  public_read: Type.Optional(Type.Boolean()),
  base_branch: Type.Optional(BaseBranchSchema),
  repository_url: Type.Optional(RepositoryUrlSchema),
});
export type NewProjectBody = Static<typeof NewProjectBodySchema>;

/**
 * `PATCH /api/projects/:project` (admin): the settings to change, the others kept; a
 * `repository_url` of null removes the links.
 */
export const ProjectSettingsBodySchema = Closed(
  {
    name: Type.Optional(ProjectNameSchema),
    public_read: Type.Optional(Type.Boolean()),
    base_branch: Type.Optional(BaseBranchSchema),
    repository_url: Type.Optional(OrNull(RepositoryUrlSchema)),
  },
  { minProperties: 1 },
);
export type ProjectSettingsBody = Static<typeof ProjectSettingsBodySchema>;

/** `POST /api/projects/:project/tokens` (admin): a new token of the project, an upload one unless said. */
export const NewTokenBodySchema = Closed({ kind: Type.Optional(TokenKindSchema) });
export type NewTokenBody = Static<typeof NewTokenBodySchema>;

/**
 * `PUT /api/projects/:project/baselines/:suite` (an upload token; `rgate baseline set --upload`):
 * which stored run is the suite's baseline, and why.
 */
export const BaselineBodySchema = Closed({
  run_id: Type.String({ pattern: UPLOAD_RUN_ID_PATTERN }),
  note: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type BaselineBody = Static<typeof BaselineBodySchema>;

/**
 * The answer to `POST /api/projects/:project/runs`: the run's page; for a branch's run with a base
 * run, its page against the base branch (`vs_base`); for a run whose gate has vs-base rules, the
 * server's judgment of them (`vs_base_gate`, NOT_EVALUATED with why when there is no base run).
 */
export const RunUploadAnswerSchema = Closed({
  run_id: Type.String(),
  stored: Type.Boolean(),
  url: Type.String(),
  vs_base: Type.Optional(Type.String()),
  vs_base_gate: Type.Optional(VsBaseGateSchema),
});
export type RunUploadAnswer = Static<typeof RunUploadAnswerSchema>;
