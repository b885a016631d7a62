import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/**
 * What a route may declare in its `config`: the query parameters it reads as a list (`?run=a&run=b`).
 * Any other parameter named twice is refused: a handler expects one string, and a store given an
 * array fails in its own way (SQLite: a 500).
 */
export interface RouteGuardConfig {
  repeatable?: readonly string[];
}

/**
 * The checks every request passes before any route sees it: no NUL byte anywhere in the URL (PostgreSQL
 * cannot hold one in text and fails the query), no query parameter named twice unless the route reads
 * a list, and, once a body is parsed, no NUL in any of its strings (with its JSON path). Each is a 400,
 * on both stores alike.
 */
export function guardRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    // %00 is the only way a NUL reaches a URL: node's parser refuses a raw one (and %2500 is "%00" as text)
    if (req.url.includes('%00')) {
      throw new HttpError(400, 'the URL holds a NUL character (%00), which no name or value may hold');
    }
    const repeatable = (req.routeOptions.config as RouteGuardConfig | undefined)?.repeatable ?? [];
    const query = req.query as Record<string, unknown>;
    for (const name of Object.keys(query).sort()) {
      if (Array.isArray(query[name]) && !repeatable.includes(name)) {
        throw new HttpError(
          400,
          `query parameter ${JSON.stringify(name)} is given more than once`,
          `/${name}`,
        );
      }
    }
  });
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const at = nulPath(req.body);
    if (at !== undefined) {
      throw new HttpError(400, `${at}: holds a NUL character (U+0000), which the server does not store`, at);
    }
  });
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON path of the first string (key or value) holding U+0000, in document order; undefined when none. */
export function nulPath(body: unknown): string | undefined {
  // iterative: a body nested thousands deep must not overflow the stack
  const stack: { value: unknown; path: string; badKey?: boolean }[] = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path, badKey } = stack.pop()!;
    if (badKey || (typeof value === 'string' && value.includes('\u0000'))) return path === '' ? '/' : path;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}/${i}` });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        stack.push({ value: v, path: `${path}/${escape(k)}`, badKey: k.includes('\u0000') });
      }
    }
  }
  return undefined;
}
