import type { FastifyInstance, FastifyReply } from 'fastify';
import { validateReportSchema } from '../src/contracts/report.js';
import { xmlEscape } from '../reports/escape.js';
import { renderHtml } from '../reports/run/html.js';
import type { AccessControl } from './access.js';
import type { ServerStores } from './stores.js';

/** What a page route is given: the stores, and the one place that decides who may read a project. */
export interface PageContext {
  stores: ServerStores;
  access: AccessControl;
}

const h = xmlEscape;

/** A plain page: every interpolated value is escaped by the caller with `h`. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(title)} · rgate</title></head>
<body><main>${body}</main></body></html>
`;
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** The report's own CSP (hashes of its inline chart.js and client script), sent as the page's header. */
function reportCsp(html: string): string | undefined {
  const attr = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  // the attribute as handlebars escaped it ('&#x27;', '&#x3D;'); a header must not carry entities
  return attr
    ?.replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * The server's HTML pages. Today: the projects index, a project's runs and a run page (the run's HTML
 * report, as `rgate report --format html` draws it). The dashboard's pages register here, on the same
 * URL scheme (`/p/:project/...`), and read access is decided by `ctx.access.read` for every one.
 */
export function registerPages(app: FastifyInstance, ctx: PageContext): void {
  app.get('/', async (_req, reply) => {
    const projects = (await ctx.stores.listProjects()).filter((p) => p.public_read);
    const items = projects.map(
      (p) => `<li><a href="/p/${h(p.slug)}">${h(p.name)}</a> <code>${h(p.slug)}</code></li>`,
    );
    return sendPage(
      reply,
      200,
      page(
        'Projects',
        `<h1>Projects</h1>${items.length ? `<ul>${items.join('')}</ul>` : '<p>No public projects.</p>'}`,
      ),
    );
  });

  app.get<{ Params: { project: string } }>('/p/:project', async (req, reply) => {
    const { project } = req.params;
    const allowed = await ctx.access.read(project, req.headers.authorization);
    if (!allowed.ok)
      return sendPage(reply, allowed.status, page('Not available', `<p>${h(allowed.message)}</p>`));
    const store = (await ctx.stores.projectStore(project))!;
    const runs = await store.listRuns({ limit: 100 });
    const rows = runs.map(
      (r) =>
        `<tr><td><a href="/p/${h(project)}/runs/${h(encodeURIComponent(r.run_id))}">${h(r.run_id)}</a></td><td>${h(r.suite)}</td><td>${h(r.verdict ?? r.status)}</td><td>${h(r.git?.branch ?? '')}</td><td>${h(r.git?.commit?.slice(0, 12) ?? '')}</td></tr>`,
    );
    return sendPage(
      reply,
      200,
      page(
        project,
        `<h1>${h(project)}</h1><table><thead><tr><th>run</th><th>suite</th><th>verdict</th><th>branch</th><th>commit</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
      ),
    );
  });

  app.get<{ Params: { project: string; run: string } }>('/p/:project/runs/:run', async (req, reply) => {
    const { project, run } = req.params;
    const allowed = await ctx.access.read(project, req.headers.authorization);
    if (!allowed.ok)
      return sendPage(reply, allowed.status, page('Not available', `<p>${h(allowed.message)}</p>`));
    const store = (await ctx.stores.projectStore(project))!;
    const report: unknown = await store.getReport(run);
    if (report === undefined || !validateReportSchema(report)) {
      return sendPage(
        reply,
        404,
        page('No such run', `<p>project ${h(project)} has no run ${h(run)} with a report</p>`),
      );
    }
    const html = renderHtml(report);
    const csp = reportCsp(html);
    if (csp) reply.header('content-security-policy', `${csp}; frame-ancestors 'none'; object-src 'none'`);
    return sendPage(reply, 200, html);
  });
}
