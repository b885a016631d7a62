import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { dashboardAssets } from '../reports/dashboard/index.js';

/**
 * `/assets/:name`: exactly the files of dashboardAssets() (chart.js from the installed package, the
 * stylesheet, the page scripts), read once; any other name is 404. They change only with rgate, so a
 * browser may keep them an hour.
 */
export function registerAssets(app: FastifyInstance): void {
  const assets = new Map<string, { body: string | Buffer; type: string }>();
  for (const [name, a] of Object.entries(dashboardAssets())) {
    assets.set(name, { body: 'path' in a ? readFileSync(a.path) : a.content, type: a.type });
  }
  app.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const a = assets.get(req.params.name);
    if (!a) return reply.code(404).send({ error: `no asset ${JSON.stringify(req.params.name)}` });
    return reply.type(a.type).header('cache-control', 'public, max-age=3600').send(a.body);
  });
  // browsers ask for it on every site; "none" rather than a 404 in every console
  app.get('/favicon.ico', async (_req, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
}
