import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from './keywords.js';
import { UPLOAD_RUN_ID_PATTERN } from './run-upload.js';

/** A project slug: lower-case words and dashes, short enough for a PostgreSQL schema name (`p_<slug>`). */
export const PROJECT_SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,59}$';

/**
 * Patterns an error message also says in words (ajv says only `must match pattern "..."`), read by
 * src/contracts' error formatter.
 */
export const PATTERNS_IN_WORDS: ReadonlyMap<string, string> = new Map([
  [PROJECT_SLUG_PATTERN, 'lower-case letters, digits, dashes'],
]);

/** What a token may do: upload runs to its project (and read it), or only read a private project. */
export const TOKEN_KINDS = ['upload', 'read'] as const;
export const TokenKindSchema = StringEnum(TOKEN_KINDS);
export type TokenKind = Static<typeof TokenKindSchema>;

/**
 * `POST /api/projects` (admin): a new project. `name` defaults to the slug, `public_read` to false;
 * both stay optional rather than defaulted here, as the route fills them in.
 */
export const NewProjectBodySchema = Closed({
  slug: Type.String({ pattern: PROJECT_SLUG_PATTERN }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  public_read: Type.Optional(Type.Boolean()),
});
export type NewProjectBody = Static<typeof NewProjectBodySchema>;

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
