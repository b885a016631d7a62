import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  compareSessionView,
  DashboardNotFound,
  diffView,
  labelQueueView,
  projectsIndexView,
  projectSummary,
  projectView,
  runsListView,
  suiteTrendView,
  type LoadPinnedSet,
} from '../history/dashboard-views.js';
import {
  DASHBOARD_CSP,
  dashboardLinks,
  renderComparePage,
  renderDiffPage,
  renderLabelQueuePage,
  renderMessagePage,
  renderProjectPage,
  renderProjectsPage,
  renderRunPage,
  renderRunsComparePage,
  renderRunsListPage,
  renderSuiteTrendPage,
  renderVsBasePage,
  type DashboardLinks,
} from '../reports/dashboard/index.js';
import { runPageWithBase, vsBaseView } from '../history/base-run.js';
import { runsCompareView } from '../history/runs-compare.js';
import { RgateError } from '../src/core/errors.js';
import { VERDICTS, type RunsFilter } from '../src/documents/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import type { AccessControl } from './access.js';
import { registerAssets } from './page-assets.js';
import type { ServerStores } from './stores.js';

/** What a page route is given: the stores, and the one place that decides who may read a project. */
export interface PageContext {
  stores: ServerStores;
  access: AccessControl;
  /** the dashboard's links; `dashboardLinks('/rgate')` when a proxy serves it under /rgate */
  links?: DashboardLinks;
  /** the pinned fixture sets the label queue pages may show (`rgate server --fixtures`) */
  loadSet?: LoadPinnedSet;
}

type Query = Record<string, string | string[] | undefined>;
/** A page of one project: its store (read access already granted), the route's params and query. */
type Build = (store: AsyncRunStore, params: Record<string, string>, query: Query) => Promise<string>;

/** A page that says why there is nothing to show, as the dashboard draws it (the server's 503 uses it too). */
export function sendMessagePage(
  reply: FastifyReply,
  links: DashboardLinks,
  status: number,
  heading: string,
  why: string,
): FastifyReply {
  return sendPage(reply, status, renderMessagePage(heading, why, links));
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', DASHBOARD_CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}

/** A query value as the forms send it: '' (the "all" option) is no filter; repeated, the first. */
function text(q: Query, name: string): string | undefined {
  const v = Array.isArray(q[name]) ? q[name][0] : q[name];
  return v === undefined || v === '' ? undefined : v;
}

/** `limit` arrives as a string: a whole number, or the client's mistake (400); the builder checks its range. */
function whole(q: Query, name: string): number | undefined {
  const v = text(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v)) {
    throw new RgateError('usage', `${name} ${JSON.stringify(v)}: must be a whole number`);
  }
  return Number(v);
}

/** A number as a form's number field sends it (`-0.5`, `1e-3`), or the client's mistake (400). */
function decimal(q: Query, name: string): number | undefined {
  const v = text(q, name);
  if (v === undefined) return undefined;
  const n = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new RgateError('usage', `${name} ${JSON.stringify(v)}: must be a number`);
  return n;
}

/** One of a few words, or the client's mistake (400) naming them. */
function oneOf<T extends string>(q: Query, name: string, words: readonly T[]): T | undefined {
  const v = text(q, name);
  if (v === undefined) return undefined;
  const w = words.find((x) => x === v);
  if (w === undefined) {
    throw new RgateError('usage', `${name} ${JSON.stringify(v)}: must be one of ${words.join(', ')}`);
  }
  return w;
}

/**
 * The dashboard (docs/dashboard.md): one route per page of `dashboardLinks`, each a view builder of
 * history/dashboard-views.ts drawn by a renderer of reports/dashboard. Read access is decided by
 * `ctx.access.read` before anything of a project is read; a subject not in the store is 404, any
 * other RgateError (a bad `limit`) 400, both as a page saying why.
 */
export function registerPages(app: FastifyInstance, ctx: PageContext): void {
  const links = ctx.links ?? dashboardLinks();
  const message = (reply: FastifyReply, status: number, heading: string, why: string) =>
    sendMessagePage(reply, links, status, heading, why);

  registerAssets(app);

  // the projects the caller may read, as GET /api/projects lists them
  app.get('/', async (req, reply) => {
    const readable = [];
    for (const p of await ctx.access.readable(req.headers.authorization)) {
      const store = await ctx.stores.projectStore(p.slug);
      if (store) readable.push(await projectSummary(store, p.slug, p.name));
    }
    return sendPage(reply, 200, renderProjectsPage(projectsIndexView(readable), links));
  });

  /** `repeatable`: the query parameters this page takes as a list (request-guards.ts refuses others repeated) */
  function page(path: string, build: Build, repeatable: readonly string[] = []): void {
    app.get(path, { config: { repeatable } }, async (req: FastifyRequest, reply) => {
      const params = req.params as Record<string, string>;
      const slug = params.project!;
      const allowed = await ctx.access.read(slug, req.headers.authorization);
      if (!allowed.ok) return message(reply, allowed.status, 'Not available', allowed.message);
      const store = (await ctx.stores.projectStore(slug))!;
      try {
        return sendPage(reply, 200, await build(store, params, req.query as Query));
      } catch (e) {
        if (!(e instanceof RgateError)) throw e;
        const why = e.hint ? `${e.message} (${e.hint})` : e.message;
        return e instanceof DashboardNotFound
          ? message(reply, 404, 'Not found', why)
          : message(reply, 400, 'Not a valid request', why);
      }
    });
  }

  page('/p/:project', async (store, { project }) =>
    renderProjectPage(await projectView(store, project!), links),
  );
  page('/p/:project/suites/:suite', async (store, { project, suite }, q) => {
    const limit = whole(q, 'limit');
    const view = await suiteTrendView(store, project!, suite!, limit === undefined ? {} : { limit });
    return renderSuiteTrendPage(view, links);
  });
  page('/p/:project/runs', async (store, { project }, q) => {
    const filter: RunsFilter = {};
    for (const k of ['suite', 'branch', 'metric', 'sort', 'before'] as const) {
      const v = text(q, k);
      if (v !== undefined) filter[k] = v;
    }
    const verdict = oneOf(q, 'verdict', VERDICTS);
    if (verdict !== undefined) filter.verdict = verdict;
    const order = oneOf(q, 'order', ['asc', 'desc'] as const);
    if (order !== undefined) filter.order = order;
    for (const k of ['metric_min', 'metric_max'] as const) {
      const v = decimal(q, k);
      if (v !== undefined) filter[k] = v;
    }
    for (const k of ['offset', 'limit'] as const) {
      const v = whole(q, k);
      if (v !== undefined) filter[k] = v;
    }
    // the project's repository URL template links commits, branches and PRs (docs/server.md)
    const info = await ctx.stores.getProject(project!);
    const repositoryUrl = info?.repository_url ?? undefined;
    const view = await runsListView(store, project!, filter, repositoryUrl ? { repositoryUrl } : {});
    return renderRunsListPage(view, links);
  });
  // a branch's run links its page against the base run (the breadcrumb's last item)
  page('/p/:project/runs/:run', async (store, { project, run }) => {
    const info = (await ctx.stores.getProject(project!))!; // read access was granted: it exists
    return renderRunPage(await runPageWithBase(store, project!, run!, info.base_branch), links);
  });
  // a branch's run against its base run: the project's base branch unless the run named its own
  page('/p/:project/runs/:run/vs-base', async (store, { project, run }) => {
    const info = (await ctx.stores.getProject(project!))!; // read access was granted: it exists
    return renderVsBasePage(await vsBaseView(store, project!, run!, info.base_branch), links);
  });
  page('/p/:project/diff/:a/:b', async (store, { project, a, b }) =>
    renderDiffPage(await diffView(store, project!, a!, b!), links),
  );
  // the one parameter that repeats: each ticked run of the runs list's form, in order
  page(
    '/p/:project/compare-runs',
    async (store, { project }, q) => {
      const named = q.run === undefined ? [] : Array.isArray(q.run) ? q.run : [q.run];
      return renderRunsComparePage(await runsCompareView(store, project!, named), links);
    },
    ['run'],
  );
  page('/p/:project/compare/:session', async (store, { project, session }) =>
    renderComparePage(await compareSessionView(store, project!, session!), links),
  );
  page('/p/:project/label/:suite', async (store, { project, suite }) => {
    const view = await labelQueueView(store, project!, suite!, ctx.loadSet ? { loadSet: ctx.loadSet } : {});
    return renderLabelQueuePage(view, links);
  });
}
