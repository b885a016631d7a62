import { canonicalJson } from '../core/canonical-json.js';
import { editDistance } from '../core/edit-distance.js';
import { RgateError } from '../core/errors.js';
import type { CommandSystemSpec, HttpSystemSpec, QueryRecord, RetrievalConfig } from '../documents/index.js';
import { checkShellScripts } from './shell-scripts.js';
import { TOKEN } from './template-tokens.js';

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
  /** where `{env.NAME}` is read from (default process.env): a secret comes from here, never from a file */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Where `{env.NAME}` may appear: in what reaches the system only (argv, the child's env, http headers). */
export interface TemplateRules {
  worker?: boolean;
  /** `{env.NAME}` is allowed (false for http filters: they travel in the request body, which rgate may record) */
  env?: boolean;
  /** the environment `{env.NAME}` is checked against (default process.env) */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
   * whether `{env.NAME}` must be set now (default true); `rgate init` checks the name only: the
   * suite it writes runs later, in CI, where the secret is set
   */
  envSet?: boolean;
}

const SIMPLE = new Set(['query', 'query_id', 'k', 'corpus_dir', 'profile', 'replay', 'exact_key']);
/** placeholders that only exist per query (not when a worker process starts) */
const PER_QUERY = new Set(['query', 'query_id', 'exact_key']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function configValue(config: RetrievalConfig, dotted: string): unknown {
  return pathValue(config, dotted);
}

/** `{params.a.b}`: the system's own parameter (suite `system.params`, `--set system.params.a.b=...`). */
function paramValue(config: RetrievalConfig, dotted: string): unknown {
  return pathValue(config.system?.params ?? {}, dotted);
}

function pathValue(root: unknown, dotted: string): unknown {
  let v: unknown = root;
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
 * Check an argv template once, before any request: every `{name}` must be a known placeholder, every
 * `{config.a.b}` must name a key of the resolved config and every `{params.a}` a key of the system's
 * params. Throws RgateError naming the argument.
 */
export function checkArgvTemplate(
  argv: readonly string[],
  config: RetrievalConfig,
  where: string,
  worker = false,
  rules: Pick<TemplateRules, 'envSet' | 'environment'> = {},
): void {
  if (argv.length === 0 || argv[0] === '')
    throw new RgateError('config_invalid', `${where}/argv: must name a program`, undefined, {
      at: `${where}/argv`,
    });
  checkTemplates(
    argv.map((arg, i) => [`${where}/argv/${i}`, arg]),
    config,
    { ...rules, worker, env: true },
  );
}

/**
 * Every placeholder of a command or http system, checked before its first request: the argv and env
 * of a command, the filters, headers and url of an http system. The adapters call it when a run
 * builds them, and `rgate init` with `envSet: false` before it writes a suite, so the two cannot
 * disagree on what a suite may hold. `config`: the resolved config the run will use (an http system
 * built without one has only its url checked).
 */
export function checkSystemTemplates(
  spec: CommandSystemSpec | HttpSystemSpec,
  config: RetrievalConfig | undefined,
  rules: Pick<TemplateRules, 'envSet' | 'environment'> = {},
): void {
  if (spec.type === 'command') {
    const worker = spec.worker === true;
    // first: a placeholder a shell would run as code is refused whatever else is wrong with it
    checkShellScripts(spec.argv, spec.env, 'system');
    checkArgvTemplate(spec.argv, config!, 'system', worker, rules);
    checkTemplates(mapTemplates(spec.env, 'system/env'), config!, { ...rules, worker, env: true });
    return;
  }
  if (config) {
    // filters travel in the request body; a secret belongs in a header
    checkTemplates(mapTemplates(spec.filters, 'system/filters'), config, rules);
    checkTemplates(mapTemplates(spec.headers, 'system/headers'), config, { ...rules, env: true });
  }
  refuseTemplates(
    'system/url',
    spec.url,
    'the url is sent as written; put a key in a header ("headers": {"Authorization": "Bearer {env.NAME}"})',
  );
}

/**
 * Check placeholder strings (`[json path, text]`: env values, http filters and headers) the way
 * argv is checked. `worker`: per-query placeholders have no value (the text is expanded once per process).
 * `{env.NAME}` must name a variable that is set and not empty, so a missing secret stops the run before
 * its first request (a CI secret that is not available to a job arrives as an empty string).
 */
/** Refuse any placeholder in a text rgate sends as written (an http url): it would travel literally. */
export function refuseTemplates(at: string, text: string, hint: string): void {
  const m = [...text.matchAll(TOKEN)][0];
  if (m) throw new RgateError('config_invalid', `${at}: ${m[0]} is not filled in here`, hint, { at });
}

export function checkTemplates(
  texts: readonly (readonly [string, string])[],
  config: RetrievalConfig,
  rules: TemplateRules = {},
): void {
  const worker = rules.worker === true;
  for (const [at, text] of texts) {
    for (const m of text.matchAll(TOKEN)) {
      const name = m[2];
      if (name === undefined) continue;
      if (name.startsWith('env.')) {
        checkEnvPlaceholder(at, name.slice(4), rules);
        continue;
      }
      if (worker && PER_QUERY.has(name)) {
        throw new RgateError(
          'config_invalid',
          `${at}: {${name}} has no value when a worker starts`,
          'a worker receives each query as a JSON line on stdin; use {corpus_dir}, {k}, {profile}, {config.*} or {params.*} in its argv and env',
          { at },
        );
      }
      if (SIMPLE.has(name)) continue;
      if (name.startsWith('config.') && configValue(config, name.slice(7)) !== undefined) continue;
      if (name.startsWith('params.')) {
        if (paramValue(config, name.slice(7)) !== undefined) continue;
        const known = Object.keys(config.system?.params ?? {}).sort();
        throw new RgateError(
          'config_invalid',
          `${at}: {${name}} names no system parameter`,
          known.length
            ? `the system's params: ${known.join(', ')} (suite system.params, or --set system.params.<key>=<value>)`
            : 'declare it in the suite: "system": {"params": {"mode": "classic"}, ...}, or pass --set system.params.<key>=<value>',
          { at },
        );
      }
      const near = nearestPlaceholder(name);
      throw new RgateError(
        'config_invalid',
        `${at}: unknown placeholder {${name}}`,
        `${near ? `did you mean {${near}}? ` : ''}placeholders: ${[...SIMPLE].map((s) => `{${s}}`).join(', ')}, {config.<dotted key>}, {params.<key>}, {env.NAME}; write {{name}} for a literal {name}`,
        { at },
      );
    }
  }
}

/**
 * The placeholder a typo was probably meant as: the nearest fixed name (`qury` -> `query`), or the
 * same dotted key under the nearest namespace (`conifg.k` -> `config.k`); none when nothing is near.
 */
function nearestPlaceholder(name: string): string | undefined {
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const names = dot < 0 ? [...SIMPLE] : ['config', 'params', 'env'];
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = editDistance(head, n);
    if (d < bestD || (d === bestD && best !== undefined && n < best)) {
      best = n;
      bestD = d;
    }
  }
  // `{config.nope}` is in the right namespace: the key is what is wrong, not the spelling of `config`
  if (
    best === undefined ||
    bestD === 0 ||
    bestD > (head.length < 3 ? 1 : Math.max(2, Math.floor(head.length / 3)))
  )
    return undefined;
  return dot < 0 ? best : `${best}${name.slice(dot)}`;
}

function checkEnvPlaceholder(at: string, name: string, rules: TemplateRules): void {
  if (!ENV_NAME.test(name)) {
    throw new RgateError(
      'config_invalid',
      `${at}: {env.${name}} is not an environment variable name`,
      'write {env.NAME} with NAME made of letters, digits and _ (e.g. {env.RETRIEVER_TOKEN})',
      { at },
    );
  }
  if (rules.env !== true) {
    throw new RgateError(
      'config_invalid',
      `${at}: {env.${name}} is only allowed in argv, env and headers`,
      'a secret belongs in a header (e.g. "headers": {"Authorization": "Bearer {env.TOKEN}"}), the command env or argv; other fields may be recorded with the run',
      { at },
    );
  }
  if (rules.envSet === false) return;
  const value = (rules.environment ?? process.env)[name];
  if (value === undefined || value === '') {
    throw new RgateError(
      'config_invalid',
      `${at}: {env.${name}} names an environment variable that is ${value === undefined ? 'not set' : 'empty'}`,
      `set ${name} before rgate run (in CI: from the secret store); rgate keeps the template {env.${name}} in its history, reports and uploads, never the value`,
      { at },
    );
  }
}

/** The names of the environment variables a set of templates reads (`{env.NAME}`), sorted, once each. */
export function envNames(texts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(TOKEN)) {
      if (m[2]?.startsWith('env.')) names.add(m[2].slice(4));
    }
  }
  return [...names].sort();
}

/**
 * Expand an argv template. Each argument stays one argument whatever the query holds (rgate starts no
 * shell): `--task={query}` with a query `a; rm -rf /` is the single argument `--task=a; rm -rf /`. A
 * shell the argv starts itself would parse its script: checkShellScripts refuses placeholders there.
 * Objects from `{config.x}` are rendered as JSON. `{{name}}` is the literal text `{name}`.
 */
export function expandArgv(argv: readonly string[], v: PlaceholderValues): string[] {
  return argv.map((arg) => expandText(arg, v));
}

/** Expand one placeholder string (an argument, an env value, an http filter or header value). */
export function expandText(text: string, v: PlaceholderValues): string {
  return text.replace(TOKEN, (_whole, literal: string | undefined, name: string | undefined) => {
    if (literal !== undefined || name === undefined) return `{${literal ?? ''}}`;
    if (name.startsWith('env.')) return (v.env ?? process.env)[name.slice(4)] ?? '';
    if (name.startsWith('config.')) return render(configValue(v.config, name.slice(7)) ?? '');
    if (name.startsWith('params.')) return render(paramValue(v.config, name.slice(7)) ?? '');
    return render((v as unknown as Record<string, unknown>)[name]);
  });
}

/** Expand every value of a string map (env, filters, headers); keys stay as written. */
export function expandMap(
  map: Readonly<Record<string, string>> | undefined,
  v: PlaceholderValues,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(map ?? {}).sort()) out[k] = expandText(map![k]!, v);
  return out;
}

/** `[json path, value]` pairs of a string map, for checkTemplates. */
export function mapTemplates(
  map: Readonly<Record<string, string>> | undefined,
  where: string,
): [string, string][] {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => [`${where}/${k}`, map![k]!]);
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
