/**
 * The one handlebars environment every HTML page renders with (run report, history, comparison,
 * closeout), and what those pages inline: chart.js, and the CSP hash that allows an inline script.
 *
 * Hostile text reaches a page only through `{{ }}`, which HTML-escapes. `{{{ }}}` is kept for what
 * is already safe where it stands, and each use says why: JSON from jsonForScript, the inlined
 * scripts (escaping would break them and their CSP hashes).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Handlebars from 'handlebars';
import { RgateError } from '../src/core/errors.js';

const requireHere = createRequire(import.meta.url);

/** reports/<group>/templates holds that group's .hbs files and inlined client scripts. */
type TemplateGroup = 'run' | 'history' | 'dashboard';
const GROUPS: readonly TemplateGroup[] = ['run', 'history', 'dashboard'];

/** Partials, by file name without .hbs; names are global to the environment. */
const PARTIALS: Record<TemplateGroup, readonly string[]> = {
  run: ['errors'],
  history: ['shell', 'charts'],
  dashboard: ['layout', 'runs-table'],
};

/**
 * strict: a misspelt field throws instead of printing nothing. preventIndent: a partial alone on an
 * indented line is not re-indented line by line, which would put spaces after every newline of
 * hostile text inside it.
 */
export const COMPILE_OPTIONS = { strict: true, preventIndent: true } as const;
// (handlebars adds `data: true` to the options object it is given: each compile gets a copy)

/**
 * What the build writes (scripts/write-templates.mjs) in dist/reports/precompiled/: a manifest of
 * every template's source hash, and per group a CommonJS file of handlebars template specs by name,
 * so a run loads its own group's templates only.
 */
interface TemplateManifest {
  version: string;
  sources: Record<string, string>;
}
type GroupSpecs = Record<string, Parameters<typeof Handlebars.template>[0]>;

/** The build's folder of precompiled templates, beside this module's compiled file. */
export function precompiledTemplatesDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'precompiled');
}

/**
 * What ties a precompiled template to its source: the .hbs text, the compile options and the
 * handlebars version that precompiled it.
 */
export function templateSourceHash(source: string, version: string): string {
  return createHash('sha256')
    .update(JSON.stringify([version, COMPILE_OPTIONS, source]))
    .digest('hex');
}

/**
 * Templates are read from the source tree, which a build does not copy: from dist/reports/ they are
 * found under the package root, two levels up.
 */
function templateDirs(group: TemplateGroup): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, group, 'templates'), join(here, '..', '..', 'reports', group, 'templates')];
}

/** reports/<group>/templates/<file>, wherever the package has it. */
export function templateFile(group: TemplateGroup, file: string): string {
  for (const dir of templateDirs(group)) {
    if (existsSync(join(dir, file))) return join(dir, file);
  }
  throw new RgateError(
    'internal',
    `report template ${group}/templates/${file} not found next to ${dirname(fileURLToPath(import.meta.url))}`,
    'reinstall rgate',
  );
}

/** Every template, `<group>/<name>` and its .hbs file, in a fixed order (what the build precompiles). */
export function templateSources(): { key: string; file: string }[] {
  return GROUPS.flatMap((group) => {
    const dir = templateDirs(group).find((d) => existsSync(d));
    if (dir === undefined) return [];
    return readdirSync(dir)
      .filter((f) => f.endsWith('.hbs'))
      .sort()
      .map((f) => ({ key: `${group}/${f.slice(0, -'.hbs'.length)}`, file: join(dir, f) }));
  });
}

/**
 * Whether the build's precompiled templates are exactly the templates on disk, each made from its
 * very source; not so after `tsc` alone or an edited or added .hbs, and then every template is
 * compiled at run time as before.
 */
export function precompiledAreFresh(dir = precompiledTemplatesDir()): boolean {
  const manifest = join(dir, 'manifest.json');
  if (!existsSync(manifest)) return false;
  const { version, sources } = JSON.parse(readFileSync(manifest, 'utf8')) as TemplateManifest;
  const onDisk = templateSources();
  if (onDisk.length !== Object.keys(sources).length) return false;
  return onDisk.every(
    ({ key, file }) => sources[key] === templateSourceHash(readFileSync(file, 'utf8'), version),
  );
}

/** The one handlebars environment and how it makes a template, chosen on the first template used. */
interface Templating {
  hb: typeof Handlebars;
  make(group: TemplateGroup, name: string): Handlebars.TemplateDelegate;
}
let templating: Templating | undefined;

/**
 * Precompiled, a report loads handlebars' runtime only (no parser, no code generator) and compiles
 * nothing; either way a template is the same code: compile() is precompile() and template() in one
 * step.
 */
function templatingNow(): Templating {
  if (templating) return templating;
  if (precompiledAreFresh()) {
    const hb = (requireHere('handlebars/runtime') as typeof Handlebars).create();
    templating = {
      hb,
      make: (group, name) => {
        const specs = requireHere(join(precompiledTemplatesDir(), `${group}.cjs`)) as GroupSpecs;
        // every .hbs on disk was precompiled (precompiledAreFresh)
        const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
        if (!spec)
          throw new RgateError(
            'internal',
            `report template ${group}/templates/${name}.hbs not found`,
            'reinstall rgate',
          );
        return hb.template(spec);
      },
    };
  } else {
    const hb = (requireHere('handlebars') as typeof Handlebars).create();
    templating = {
      hb,
      make: (group, name) =>
        hb.compile(readFileSync(templateFile(group, `${name}.hbs`), 'utf8'), { ...COMPILE_OPTIONS }),
    };
  }
  return templating;
}

const compiled = new Map<string, Handlebars.TemplateDelegate>();
const partialsOf = new Set<TemplateGroup>();

/** The compiled template reports/<group>/templates/<name>.hbs, with its group's partials registered. */
export function template(group: TemplateGroup, name: string): Handlebars.TemplateDelegate {
  const key = `${group}/${name}`;
  let t = compiled.get(key);
  if (!t) {
    const { hb, make } = templatingNow();
    if (!partialsOf.has(group)) {
      for (const p of PARTIALS[group]) hb.registerPartial(p, make(group, p));
      partialsOf.add(group);
    }
    t = make(group, name);
    compiled.set(key, t);
  }
  return t;
}

const assets = new Map<string, string>();

/** A client script from reports/<group>/templates, inlined verbatim (its CSP hash is of these bytes). */
export function clientScript(group: TemplateGroup, file: string): string {
  const path = templateFile(group, file);
  let js = assets.get(path);
  if (js === undefined) {
    js = readFileSync(path, 'utf8');
    if (/<\/script|<!--/i.test(js)) throw new RgateError('internal', `${path} cannot be inlined safely`);
    assets.set(path, js);
  }
  return js;
}

/**
 * chart.js's package exports do not expose dist/chart.umd.js, so resolve the package entry
 * (dist/chart.cjs) and take the UMD build beside it.
 */
export function chartJsPath(): string {
  const entry = createRequire(import.meta.url).resolve('chart.js');
  return join(dirname(entry), 'chart.umd.js');
}

/** chart.js as inlined in a page; `path` overrides where it is read from (tests). */
export function chartJs(path: string = chartJsPath()): string {
  let chart = assets.get(path);
  if (chart === undefined) {
    if (!existsSync(path)) throw new RgateError('internal', `chart.js not found at ${path}`, 'run npm ci');
    chart = readFileSync(path, 'utf8');
    // inlined verbatim: it must not be able to close its own <script> element
    if (/<\/script|<!--/i.test(chart)) throw new RgateError('internal', `${path} cannot be inlined safely`);
    assets.set(path, chart);
  }
  return chart;
}

/** The CSP source that allows exactly this inline script. */
export const cspHash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/**
 * A page served by the dashboard instead of written as a file: a breadcrumb above it, the dashboard
 * stylesheet, and its scripts loaded from the server's /assets/ (the server allows `script-src
 * 'self'` only, so no inline script), not inlined and allowed by hash.
 */
export interface PageFrame {
  /** the breadcrumb, outermost first; the current page has no href */
  nav: { href: string | null; text: string }[];
  /** URL of the dashboard stylesheet */
  css: string;
  /** URL of chart.js (pages with charts) */
  chart: string;
  /** URL of the page's client script */
  client: string;
  /** the page of a stored run (a comparison's variants link to theirs), when the server has one */
  runHref?: (runId: string) => string;
  /** the per-query diff page of two stored runs (a comparison of stored runs links each pair's flips to it) */
  diffHref?: (aRunId: string, bRunId: string) => string;
  /** a sentence under the page's heading: what the page compares and why (a branch's base run) */
  note?: string;
  /** lines under the note, each its own item (a branch's vs-base gate: its verdict, then each rule) */
  notes?: readonly string[];
}

/**
 * The policy a framed page states in its meta element: the server's header policy without
 * frame-ancestors, which a meta element cannot carry.
 */
export const FRAMED_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
