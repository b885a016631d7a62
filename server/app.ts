import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { RgateError } from '../src/core/errors.js';
import { checkSessionUpload } from '../src/contracts/compare-session-upload.js';
import { checkRunUpload } from '../src/contracts/run-upload.js';
import {
  checkBody,
  validateBaselineBody,
  validateNewProjectBody,
  validateNewTokenBody,
  validateProjectSettingsBody,
} from '../src/contracts/server-requests.js';
import type { RunRow, RunUploadAnswer } from '../src/documents/index.js';
import { baselineRefusal } from '../history/baseline.js';
import { baseRunOf, vsBaseGateOf } from '../history/base-run.js';
import type { LoadPinnedSet } from '../history/dashboard-views.js';
import { DASHBOARD_CSP, dashboardLinks } from '../reports/dashboard/index.js';
import { AccessControl, type Access } from './access.js';
import { HttpError } from './http-error.js';
import { registerPages, sendMessagePage } from './pages.js';
import { RateLimiter } from './rate-limit.js';
import { guardRequests } from './request-guards.js';
import { storeUploadedSession } from './session-upload.js';
import type { ServerStores } from './stores.js';
import { DEFAULT_BASE_BRANCH } from './registry.js';
import { newToken, tokenHash, type TokenRecord } from './tokens.js';

export interface ServerOptions {
  /** the admin token (read from the environment by the CLI); without it, admin routes answer 403 */
  adminToken?: string | undefined;
  /** largest request body in bytes (413 beyond); default 50 MB */
  bodyLimit?: number;
  /** requests per minute per live token (else per client address); 0 = no limit; default 600 */
  rateLimit?: number;
  /** the path a reverse proxy serves the server under ('/rgate'); the pages' links start with it */
  basePath?: string;
  /** the pinned fixture sets the label queue pages show (`--fixtures`, see fixtureLibrary) */
  loadSet?: LoadPinnedSet | undefined;
}

export const DEFAULT_BODY_LIMIT = 50 * 1024 * 1024;
export const DEFAULT_RATE_LIMIT = 600;

/**
 * What every response carries: uploaded text can never run as script, be sniffed or be framed. One
 * policy for pages, JSON and assets alike, the one docs/server.md quotes (a JSON answer opened in a
 * browser is held to what a page is).
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * A run's dashboard page, relative to where the server is mounted: the link `rgate run --upload`
 * prints (after the server URL it was given, which holds a proxy's path) and a CI comment can cite.
 */
export function runUrl(project: string, runId: string): string {
  return dashboardLinks().run(project, runId);
}

/** A comparison session's dashboard page, relative to where the server is mounted (see runUrl). */
function sessionUrl(project: string, sessionId: string): string {
  return dashboardLinks().compare(project, sessionId);
}

function refuse(access: Access): asserts access is Extract<Access, { ok: true }> {
  if (!access.ok) throw new HttpError(access.status, access.message);
}

/**
 * A route's access check as its onRequest hook: decided before the body is read, so a refused caller
 * (a 45 MB anonymous upload) is answered at once and its body is never buffered or parsed.
 */
function checkedFirst(check: (req: FastifyRequest) => Access | Promise<Access>) {
  return { onRequest: async (req: FastifyRequest) => refuse(await check(req)) };
}

const projectOf = (req: FastifyRequest): string => (req.params as { project: string }).project;

/** A body's first problem as every route answers it: 400, `/json/path: message (and N more)`, the path. */
function badBody(problem: { path: string; message: string; more: number }): HttpError {
  const more = problem.more > 0 ? ` (and ${problem.more} more)` : '';
  return new HttpError(400, `${problem.path}: ${problem.message}${more}`, problem.path);
}

/** A connection-level failure of the database (restarting, unreachable): the client should retry. */
function unavailable(e: unknown): boolean {
  const code = String((e as { code?: unknown }).code ?? '');
  return (
    /^(ECONNREFUSED|ECONNRESET|ENOENT|ETIMEDOUT|EPIPE|SQLITE_BUSY)$/.test(code) ||
    /^(57P0[123]|08\d\d\d|53\d\d\d)$/.test(code) ||
    /Connection terminated|terminating connection|the database system is (starting up|shutting down)/i.test(
      (e as Error).message ?? '',
    )
  );
}

function publicRow(row: RunRow): Omit<RunRow, 'owner'> {
  const { owner: _owner, ...rest } = row;
  return rest;
}

/**
 * The HTTP server over its stores: the JSON API under /api, pages from registerPages. Logging is off:
 * nothing a request carries (tokens in headers) reaches a log.
 */
export async function buildServer(stores: ServerStores, opts: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // a slow or stalled client cannot hold a connection open for ever
    requestTimeout: 120_000,
    routerOptions: { maxParamLength: 200 },
  });
  const access = new AccessControl(stores, opts.adminToken);
  const links = dashboardLinks(opts.basePath ?? '');
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  // JSON only: fastify would take text/plain as a string, and the upload check would then say
  // "/: must be object" of a body that was never JSON
  app.removeContentTypeParser('text/plain');
  const limiter = new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT);

  limitRequests(app, access, limiter);
  guardRequests(app);
  answerErrors(app, links, bodyLimit);
  registerAdminRoutes(app, stores, access);
  registerUploadRoutes(app, stores, access);
  registerReadRoutes(app, stores, access);
  registerPages(app, {
    stores,
    access,
    links,
    ...(opts.loadSet ? { loadSet: opts.loadSet } : {}),
  });
  return app;
}

/** The rate limit per caller (static files exempt) and the security headers of every answer. */
function limitRequests(app: FastifyInstance, access: AccessControl, limiter: RateLimiter): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    // static files touch no store: a page's assets must not eat the readers' budget (behind a
    // proxy every reader shares one client address)
    if (req.method === 'GET' && (req.url.startsWith('/assets/') || req.url === '/favicon.ico')) return;
    // a token that is not live (unknown, revoked) is limited as the anonymous caller it is
    const live = await access.liveTokenHash(req.headers.authorization);
    const wait = limiter.take(live ? `t:${live}` : `a:${req.ip}`);
    if (wait > 0) {
      return reply
        .code(429)
        .header('retry-after', String(wait))
        .send({ error: `too many requests: retry after ${wait} s` });
    }
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(k)) reply.header(k, v);
    return payload;
  });
}

const HEADINGS: Record<number, string> = { 400: 'Not a valid request', 404: 'Not found' };

/** A request for a dashboard page (answered in HTML), not for the JSON API. */
function isPage(req: FastifyRequest): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/');
}

/**
 * What a failed request answers: the HttpError's status and message, the body limit and media type
 * in words, 503 while the database is unreachable, else 500 with no internal message; 404 for an
 * unknown route.
 */
function answerErrors(
  app: FastifyInstance,
  links: ReturnType<typeof dashboardLinks>,
  bodyLimit: number,
): void {
  app.setErrorHandler(async (error: unknown, req, reply) => {
    if (error instanceof HttpError) {
      // a reader of a page gets a page (a refusal before any route ran: a NUL in its URL)
      if (isPage(req)) {
        return sendMessagePage(
          reply,
          links,
          error.status,
          HEADINGS[error.status] ?? 'Not available',
          error.message,
        );
      }
      return reply
        .code(error.status)
        .send({ error: error.message, ...(error.path ? { path: error.path } : {}) });
    }
    const e = error as { statusCode?: number; code?: string; message?: string };
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({
        error: `the body is larger than this server accepts (${bodyLimit} bytes; rgate server --body-limit-mb)`,
      });
    }
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ error: 'the body must be JSON (content-type: application/json)' });
    }
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return reply
        .code(e.statusCode)
        .send({ error: e.message ?? 'bad request', ...(e.statusCode === 400 ? { path: '/' } : {}) });
    }
    if (unavailable(error)) {
      reply.code(503).header('retry-after', '1');
      // a reader of a page gets a page; a client of the API its JSON
      if (isPage(req)) {
        return sendMessagePage(
          reply,
          links,
          503,
          'Temporarily unavailable',
          'the server cannot reach its database just now; reload this page in a moment',
        );
      }
      return reply.send({ error: 'the database is unavailable; retry' });
    }
    // never echo an internal message (it may hold a connection string); the operator has the process
    return reply.code(500).send({ error: 'internal error' });
  });
  app.setNotFoundHandler(async (_req, reply) => reply.code(404).send({ error: 'not found' }));
}

/** Health, the project list, and the admin's routes: projects and their tokens. */
function registerAdminRoutes(app: FastifyInstance, stores: ServerStores, access: AccessControl): void {
  app.get('/api/health', async () => ({ ok: true }));

  // the projects the caller may read, as `/` lists them
  app.get('/api/projects', async (req) => ({ projects: await access.readable(req.headers.authorization) }));

  const asAdmin = checkedFirst((req) => access.admin(req.headers.authorization));
  app.post('/api/projects', asAdmin, async (req, reply) => {
    // no body at all is an empty one: its slug is then what is missing
    const check = checkBody(validateNewProjectBody, req.body ?? {});
    if (!check.ok) throw badBody(check);
    const {
      slug,
      name = slug,
      public_read: publicRead = false,
      base_branch: baseBranch = DEFAULT_BASE_BRANCH,
      repository_url: repositoryUrl = null,
    } = check.body;
    const now = new Date().toISOString();
    const { id, token } = newToken('upload');
    const created = await stores.registry.createProject(
      {
        slug,
        name,
        public_read: publicRead,
        created_at: now,
        base_branch: baseBranch,
        repository_url: repositoryUrl,
      },
      { id, project: slug, kind: 'upload', sha256: tokenHash(token), created_at: now, revoked_at: null },
    );
    if (!created) throw new HttpError(409, `project ${slug} exists`);
    return reply.code(201).send({
      slug,
      name,
      public_read: publicRead,
      base_branch: baseBranch,
      repository_url: repositoryUrl,
      token_id: id,
      token,
    });
  });

  // a project's settings, changed by the admin: the fields given, the others kept
  app.patch<{ Params: { project: string } }>('/api/projects/:project', asAdmin, async (req) => {
    if (!(await stores.getProject(req.params.project)))
      throw new HttpError(404, `no project ${JSON.stringify(req.params.project)}`);
    const check = checkBody(validateProjectSettingsBody, req.body ?? {});
    if (!check.ok) throw badBody(check);
    const project = await stores.registry.updateProject(req.params.project, check.body);
    if (!project) throw new HttpError(404, `no project ${JSON.stringify(req.params.project)}`);
    return { project };
  });

  app.get<{ Params: { project: string } }>('/api/projects/:project/tokens', asAdmin, async (req) => {
    if (!(await stores.getProject(req.params.project)))
      throw new HttpError(404, `no project ${JSON.stringify(req.params.project)}`);
    return { tokens: await stores.registry.listTokens(req.params.project) };
  });

  app.post<{ Params: { project: string } }>('/api/projects/:project/tokens', asAdmin, async (req, reply) => {
    const project = req.params.project;
    if (!(await stores.getProject(project)))
      throw new HttpError(404, `no project ${JSON.stringify(project)}`);
    // no body at all asks for an upload token, as an empty one does
    const check = checkBody(validateNewTokenBody, req.body ?? {});
    if (!check.ok) throw badBody(check);
    const kind = check.body.kind ?? 'upload';
    const { id, token } = newToken(kind);
    const record: TokenRecord = {
      id,
      project,
      kind,
      sha256: tokenHash(token),
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    await stores.registry.addToken(record);
    return reply.code(201).send({ id, kind, token });
  });

  app.delete<{ Params: { project: string; id: string } }>(
    '/api/projects/:project/tokens/:id',
    asAdmin,
    async (req) => {
      const { project, id } = req.params;
      if (!(await stores.registry.revokeToken(project, id, new Date().toISOString()))) {
        throw new HttpError(404, `project ${JSON.stringify(project)} has no token ${JSON.stringify(id)}`);
      }
      return { id, revoked: true };
    },
  );
}

/** What a project's upload token may send: runs, comparison sessions, the suite's baseline. */
function registerUploadRoutes(app: FastifyInstance, stores: ServerStores, access: AccessControl): void {
  const asUploader = checkedFirst((req) => access.upload(projectOf(req), req.headers.authorization));
  app.post<{ Params: { project: string } }>('/api/projects/:project/runs', asUploader, async (req, reply) => {
    const project = req.params.project;
    const check = checkRunUpload(req.body);
    if (!check.ok) throw badBody(check);
    const { meta, observations, result } = check.upload;
    const { owner: _owner, ...kept } = meta; // the uploading process is the CI runner's business
    const store = await stores.projectStore(project);
    if (!store) throw new HttpError(404, `no project ${JSON.stringify(project)}`);
    let outcome;
    try {
      outcome = await store.importRun({ meta: kept, observations, result });
    } catch (e) {
      if (e instanceof RgateError && /already stored/.test(e.message)) {
        throw new HttpError(
          409,
          `run ${meta.run_id} is already stored in project ${project} with other content`,
        );
      }
      throw e;
    }
    // a branch's run links its comparison with the base run, when there is one to compare with
    const row = (await store.getRun(meta.run_id))!;
    const info = (await stores.getProject(project))!;
    const base = await baseRunOf(store, row, info.base_branch);
    // its gate's vs_base rules, judged here: only the server holds the base run (the CLI fails the step on a FAIL)
    const gate = await vsBaseGateOf(store, project, row, base);
    const answer: RunUploadAnswer = {
      run_id: meta.run_id,
      stored: outcome === 'stored',
      url: runUrl(project, meta.run_id),
      ...(base.kind === 'none' ? {} : { vs_base: dashboardLinks().vsBase(project, meta.run_id) }),
      ...(gate ? { vs_base_gate: gate } : {}),
    };
    return reply.code(outcome === 'stored' ? 201 : 200).send(answer);
  });

  app.post<{ Params: { project: string } }>(
    '/api/projects/:project/sessions',
    asUploader,
    async (req, reply) => {
      const project = req.params.project;
      const check = checkSessionUpload(req.body);
      if (!check.ok) throw badBody(check);
      const session = check.session;
      const store = await stores.projectStore(project);
      if (!store) throw new HttpError(404, `no project ${JSON.stringify(project)}`);
      const outcome = await storeUploadedSession(store, project, session);
      if (outcome.kind === 'conflict') throw new HttpError(409, outcome.message, outcome.path);
      const id = session.environment.session_id;
      return reply
        .code(outcome.kind === 'stored' ? 201 : 200)
        .send({ session_id: id, stored: outcome.kind === 'stored', url: sessionUrl(project, id) });
    },
  );

  // a suite's baseline, set by a team with its upload token (`rgate baseline set --upload`): the
  // trend pages mark it, as `rgate history` marks the local one
  app.put<{ Params: { project: string; suite: string } }>(
    '/api/projects/:project/baselines/:suite',
    asUploader,
    async (req) => {
      const { project, suite } = req.params;
      const check = checkBody(validateBaselineBody, req.body);
      if (!check.ok) throw badBody(check);
      const { run_id: runId, note } = check.body;
      const store = (await stores.projectStore(project))!;
      const row = await store.getRun(runId);
      if (!row) {
        throw new HttpError(
          409,
          `project ${project} has no run ${JSON.stringify(runId)}: upload it first (rgate baseline set --upload sends it)`,
          '/run_id',
        );
      }
      const refused = baselineRefusal(row, suite);
      if (refused) throw new HttpError(400, `/run_id: ${refused.message}`, '/run_id');
      await store.setBaseline(suite, runId, note);
      return { suite, run_id: runId, note: note ?? null, url: dashboardLinks().suite(project, suite) };
    },
  );
}

/** A project's runs as JSON, for its readers. */
function registerReadRoutes(app: FastifyInstance, stores: ServerStores, access: AccessControl): void {
  app.get<{ Params: { project: string }; Querystring: { suite?: string; limit?: string } }>(
    '/api/projects/:project/runs',
    async (req) => {
      const project = req.params.project;
      refuse(await access.read(project, req.headers.authorization));
      const store = (await stores.projectStore(project))!;
      const limit = req.query.limit === undefined ? 100 : Number(req.query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new HttpError(400, 'limit: must be an integer from 1 to 1000', '/limit');
      }
      const runs = await store.listRuns({ ...(req.query.suite ? { suite: req.query.suite } : {}), limit });
      return { runs: runs.map((r) => ({ ...publicRow(r), url: runUrl(project, r.run_id) })) };
    },
  );

  app.get<{ Params: { project: string; run: string } }>('/api/projects/:project/runs/:run', async (req) => {
    const { project, run } = req.params;
    refuse(await access.read(project, req.headers.authorization));
    const store = (await stores.projectStore(project))!;
    const row = await store.getRun(run);
    if (!row) throw new HttpError(404, `project ${project} has no run ${JSON.stringify(run)}`);
    return {
      run: { ...publicRow(row), url: runUrl(project, run) },
      metrics: await store.getMetrics(run),
      report: (await store.getReport(run)) ?? null,
    };
  });
}
