/**
 * The one handlebars environment every HTML page renders with (run report, history, comparison,
 * closeout), and what those pages inline: chart.js, and the CSP hash that allows an inline script.
 *
 * Hostile text reaches a page only through `{{ }}`, which HTML-escapes. `{{{ }}}` is kept for what
 * is already safe where it stands, and each use says why: JSON from jsonForScript, the inlined
 * scripts (escaping would break them and their CSP hashes).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { RgateError } from '../src/core/errors.js';

/** reports/<group>/templates holds that group's .hbs files and inlined client scripts. */
type TemplateGroup = 'run' | 'history' | 'dashboard';

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
const COMPILE_OPTIONS = { strict: true, preventIndent: true } as const;

const hb = Handlebars.create();
const compiled = new Map<string, Handlebars.TemplateDelegate>();
const partialsOf = new Set<TemplateGroup>();

/**
 * Templates are read from the source tree, which a build does not copy: from dist/reports/ they are
 * found under the package root, two levels up.
 */
export function templateFile(group: TemplateGroup, file: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, group, 'templates'), join(here, '..', '..', 'reports', group, 'templates')]) {
    if (existsSync(join(dir, file))) return join(dir, file);
  }
  throw new RgateError(
    'internal',
    `report template ${group}/templates/${file} not found next to ${here}`,
    'reinstall rgate',
  );
}

function compile(group: TemplateGroup, name: string): Handlebars.TemplateDelegate {
  return hb.compile(readFileSync(templateFile(group, `${name}.hbs`), 'utf8'), COMPILE_OPTIONS);
}

/** The compiled template reports/<group>/templates/<name>.hbs, with its group's partials registered. */
export function template(group: TemplateGroup, name: string): Handlebars.TemplateDelegate {
  const key = `${group}/${name}`;
  let t = compiled.get(key);
  if (!t) {
    if (!partialsOf.has(group)) {
      for (const p of PARTIALS[group]) hb.registerPartial(p, compile(group, p));
      partialsOf.add(group);
    }
    t = compile(group, name);
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
