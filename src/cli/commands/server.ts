import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import {
  buildServer,
  DEFAULT_BODY_LIMIT,
  DEFAULT_DATA_DIR,
  DEFAULT_RATE_LIMIT,
  fixtureLibrary,
  isPostgresUrl,
  openServerStores,
} from '../../../server/index.js';
import { dashboardLinks } from '../../../reports/dashboard/index.js';
import type { RgateCommand } from '../command.js';
import { resolve } from 'node:path';

interface ServerArgs {
  db?: string;
  port?: number;
  host?: string;
  'admin-token-env'?: string;
  'body-limit-mb'?: number;
  'rate-limit'?: number;
  fixtures?: string;
  'base-path'?: string;
}

const DEFAULT_ADMIN_ENV = 'RGATE_ADMIN_TOKEN';

/** `rgate server`: a team's shared run history over HTTP (docs/server.md); runs until SIGINT or SIGTERM. */
export const serverCommand: RgateCommand<ServerArgs> = {
  command: 'server',
  describe:
    "Serve a team's run history: upload API for CI, projects and tokens, the dashboard (SQLite or PostgreSQL)",
  builder: (y: Argv) =>
    y
      .option('db', {
        type: 'string',
        describe: `a data directory (SQLite: server.sqlite + projects/<slug>.sqlite; default ${DEFAULT_DATA_DIR}) or a postgres:// URL`,
      })
      .option('port', { type: 'number', describe: 'TCP port (default 8787; 0 picks a free one)' })
      .option('host', {
        type: 'string',
        describe: 'address to listen on (default 127.0.0.1; put a TLS proxy in front)',
      })
      .option('admin-token-env', {
        type: 'string',
        describe: `environment variable holding the admin token (default ${DEFAULT_ADMIN_ENV}); without it, no project can be created`,
      })
      .option('body-limit-mb', {
        type: 'number',
        describe: `largest upload in MB (default ${DEFAULT_BODY_LIMIT / 1024 / 1024}; 413 beyond)`,
      })
      .option('rate-limit', {
        type: 'number',
        describe: `requests per minute per token or client (default ${DEFAULT_RATE_LIMIT}; 0: none)`,
      })
      .option('fixtures', {
        type: 'string',
        describe:
          "a folder of pinned fixture sets (e.g. a checkout's fixtures/): label queue pages show the set whose corpus a run was made on",
      })
      .option('base-path', {
        type: 'string',
        describe: 'the path a reverse proxy serves the server under (e.g. /rgate): the pages link with it',
      })
      .example(
        `${DEFAULT_ADMIN_ENV}=$(openssl rand -hex 32) $0 server`,
        'SQLite in .rgate/server/, on 127.0.0.1:8787',
      )
      .example(
        '$0 server --db postgres://rgate@db:5432/rgate --host 0.0.0.0 --port 8080',
        'PostgreSQL, behind a reverse proxy',
      )
      .example('$0 server --fixtures fixtures', 'label queue pages with the texts and qrels of ./fixtures/*')
      .example(
        `curl -H "Authorization: Bearer $${DEFAULT_ADMIN_ENV}" -H 'content-type: application/json' -d '{"slug":"search","name":"Search"}' http://127.0.0.1:8787/api/projects`,
        'create a project; the answer holds its first upload token (shown once)',
      ),
  async handler(args, io) {
    const port = args.port ?? 8787;
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new RgateError('usage', `--port ${port}: must be 0..65535`);
    const mb = args['body-limit-mb'] ?? DEFAULT_BODY_LIMIT / 1024 / 1024;
    if (!(mb > 0)) throw new RgateError('usage', `--body-limit-mb ${mb}: must be > 0`);
    const rate = args['rate-limit'] ?? DEFAULT_RATE_LIMIT;
    if (!Number.isInteger(rate) || rate < 0)
      throw new RgateError('usage', `--rate-limit ${rate}: must be a whole number >= 0`);
    const adminEnv = args['admin-token-env'] ?? DEFAULT_ADMIN_ENV;
    const adminToken = io.env[adminEnv] || undefined;
    if (adminToken !== undefined && adminToken.length < 16) {
      throw new RgateError(
        'usage',
        `the admin token in ${adminEnv} is shorter than 16 characters`,
        'use e.g. openssl rand -hex 32',
      );
    }
    // before the stores open: a broken fixture set or base path is a usage error, nothing to close
    const fixtures = args.fixtures === undefined ? undefined : fixtureLibrary(args.fixtures, io.cwd);
    const basePath = args['base-path'] ?? '';
    dashboardLinks(basePath);
    const db = args.db ?? DEFAULT_DATA_DIR;
    const stores = await openServerStores(isPostgresUrl(db) ? db : resolve(io.cwd, db), db);
    const app = await buildServer(stores, {
      adminToken,
      bodyLimit: Math.round(mb * 1024 * 1024),
      rateLimit: rate,
      basePath,
      loadSet: fixtures?.loadSet,
    });
    const host = args.host ?? '127.0.0.1';
    try {
      await app.listen({ port, host });
    } catch (e) {
      await stores.close();
      const code = (e as { code?: string }).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
        throw new RgateError(
          'usage',
          `cannot listen on ${host}:${port} (${code})`,
          'choose another --port or --host',
        );
      }
      throw e;
    }
    const addr = app.server.address();
    const shown =
      typeof addr === 'object' && addr
        ? `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`
        : String(addr);
    io.out(`rgate server listening on ${shown} (store: ${stores.location})`);
    if (fixtures)
      io.out(
        `label queues from ${fixtures.names.length} fixture set(s) in ${fixtures.dir}: ${fixtures.names.join(', ')}`,
      );
    if (!adminToken)
      io.err(
        `rgate: warning: ${adminEnv} is not set: projects and tokens cannot be created (admin routes answer 403)`,
      );
    await new Promise<void>((done) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        done();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await app.close();
    await stores.close();
    return EXIT.ok;
  },
};
