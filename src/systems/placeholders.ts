import { canonicalJson } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import type { QueryRecord, RetrievalConfig } from '../documents/index.js';

/** Values the argv template may use. */
export interface PlaceholderValues {
  query: string;
  query_id: string;
  k: number;
  corpus_dir: string;
  profile: string;
  replay: number;
  exact_key: string;
  config: RetrievalConfig;
}

const SIMPLE = new Set(['query', 'query_id', 'k', 'corpus_dir', 'profile', 'replay', 'exact_key']);
/** placeholders that only exist per query (not when a worker process starts) */
const PER_QUERY = new Set(['query', 'query_id', 'exact_key']);
// `{name}` with an identifier-like name is a placeholder; `{{name}}` is the literal text `{name}`. Other
// braces (JSON in an argument: `{"a":{"b":1}}`) are left alone, so no escaping is needed for them.
const TOKEN = /\{\{([A-Za-z_][\w.]*)\}\}|\{([A-Za-z_][\w.]*)\}/g;

function configValue(config: RetrievalConfig, dotted: string): unknown {
  let v: unknown = config;
  for (const part of dotted.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function render(v: unknown): string {
  // canonical JSON: the same config renders the same argument bytes on every run
  return typeof v === 'string' ? v : canonicalJson(v);
}

/**
 * Check an argv template once, before any request: every `{name}` must be a known placeholder and every
 * `{config.a.b}` must name a key of the resolved config. Throws RgateError naming the argument.
 */
export function checkArgvTemplate(
  argv: readonly string[],
  config: RetrievalConfig,
  where: string,
  worker = false,
): void {
  if (argv.length === 0 || argv[0] === '')
    throw new RgateError('config_invalid', `${where}/argv: must name a program`);
  argv.forEach((arg, i) => {
    for (const m of arg.matchAll(TOKEN)) {
      const name = m[2];
      if (name === undefined) continue;
      if (worker && PER_QUERY.has(name)) {
        throw new RgateError(
          'config_invalid',
          `${where}/argv/${i}: {${name}} has no value when a worker starts`,
          'a worker receives each query as a JSON line on stdin; use {corpus_dir}, {k}, {profile} or {config.*} in its argv',
        );
      }
      if (SIMPLE.has(name)) continue;
      if (name.startsWith('config.') && configValue(config, name.slice(7)) !== undefined) continue;
      throw new RgateError(
        'config_invalid',
        `${where}/argv/${i}: unknown placeholder {${name}}`,
        `placeholders: ${[...SIMPLE].map((s) => `{${s}}`).join(', ')}, {config.<dotted key>}; write {{name}} for a literal {name}`,
      );
    }
  });
}

/**
 * Expand an argv template. Each argument stays one argument whatever the query holds (no shell, so no
 * injection): `--task={query}` with a query `a; rm -rf /` is the single argument `--task=a; rm -rf /`.
 * Objects from `{config.x}` are rendered as JSON. `{{name}}` is the literal text `{name}`.
 */
export function expandArgv(argv: readonly string[], v: PlaceholderValues): string[] {
  return argv.map((arg) =>
    arg.replace(TOKEN, (_whole, literal: string | undefined, name: string | undefined) => {
      if (literal !== undefined || name === undefined) return `{${literal ?? ''}}`;
      if (name.startsWith('config.')) return render(configValue(v.config, name.slice(7)) ?? '');
      return render((v as unknown as Record<string, unknown>)[name]);
    }),
  );
}

/** Placeholder values for one query. */
export function placeholderValues(
  q: QueryRecord,
  ctx: { replay: number; config: RetrievalConfig; fixtureDir: string },
): PlaceholderValues {
  return {
    query: q.text,
    query_id: q.query_id,
    k: ctx.config.k,
    corpus_dir: ctx.fixtureDir,
    profile: q.profile ?? ctx.config.retrieval_profile,
    replay: ctx.replay,
    exact_key: q.exact_key ?? '',
    config: ctx.config,
  };
}
