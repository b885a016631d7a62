/**
 * The dashboard's URL scheme, stated once: the server routes by it, the pages link by it, and a CI
 * comment can point at any of these paths (they name stored things, never a position in a list).
 *
 *   /                                  projects
 *   /p/:project                        a project: suites, latest runs, comparison sessions
 *   /p/:project/suites/:suite          a suite's trend
 *   /p/:project/runs                   the runs list (?suite=&branch=&verdict=&metric=&metric_min=
 *                                      &metric_max=&sort=&order=&before=&offset=&limit=)
 *   /p/:project/runs/:run              a run's report
 *   /p/:project/runs/:run/vs-base      a branch's run against its base run
 *   /p/:project/diff/:a/:b             what changed between two runs
 *   /p/:project/compare/:session       a comparison session
 *   /p/:project/compare-runs?run=a&run=b  stored runs side by side
 *   /p/:project/label/:suite           a suite's label queue (read-only)
 *   /assets/:name                      static assets (dashboardAssets)
 *
 * Every segment and query value is encodeURIComponent-ed and every path starts with one `/` (the
 * base, if any, is a fixed path the operator chose), so an uploaded name like `javascript:x` or
 * `//evil.example` can only ever be a path segment on this origin.
 */
import { RgateError } from '../../src/core/errors.js';
import { RUNS_FILTER_KEYS } from '../../src/documents/index.js';
import { FRAMED_PAGE_CSP } from '../templates.js';

/** The runs list's query, in the order its links name it (RunsFilter's fields). */
export interface RunsQuery {
  suite?: string | undefined;
  branch?: string | undefined;
  verdict?: string | undefined;
  metric?: string | undefined;
  metric_min?: number | undefined;
  metric_max?: number | undefined;
  sort?: string | undefined;
  order?: string | undefined;
  before?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface DashboardLinks {
  projects(): string;
  project(project: string): string;
  suite(project: string, suite: string): string;
  runs(project: string, query?: RunsQuery): string;
  run(project: string, run: string): string;
  /** a branch's run compared with its base branch's run (history/base-run.ts) */
  vsBase(project: string, run: string): string;
  diff(project: string, a: string, b: string): string;
  compare(project: string, session: string): string;
  /** stored runs side by side, the first the reference */
  compareRuns(project: string, runs: readonly string[]): string;
  label(project: string, suite: string): string;
  asset(name: string): string;
}

const seg = encodeURIComponent;

/**
 * The links of a dashboard mounted at `base` ('' at the root; '/rgate' behind a proxy that serves
 * it under that path). Example: dashboardLinks().run('search', '20261101T020000Z-1a2b') ->
 * '/p/search/runs/20261101T020000Z-1a2b'
 */
export function dashboardLinks(base = ''): DashboardLinks {
  if (base !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(base)) {
    throw new RgateError(
      'usage',
      `dashboard base path ${JSON.stringify(base)}: must be empty or /segment[/segment...]`,
      'e.g. --base-path /rgate',
    );
  }
  const p = (project: string) => `${base}/p/${seg(project)}`;
  return {
    projects: () => `${base}/`,
    project: (project) => p(project),
    suite: (project, suite) => `${p(project)}/suites/${seg(suite)}`,
    runs: (project, q = {}) => {
      const params: [string, string][] = [];
      for (const k of RUNS_FILTER_KEYS) if (q[k] !== undefined) params.push([k, String(q[k])]);
      const query = params.map(([k, v]) => `${k}=${seg(v)}`).join('&');
      return `${p(project)}/runs${query ? `?${query}` : ''}`;
    },
    run: (project, run) => `${p(project)}/runs/${seg(run)}`,
    vsBase: (project, run) => `${p(project)}/runs/${seg(run)}/vs-base`,
    diff: (project, a, b) => `${p(project)}/diff/${seg(a)}/${seg(b)}`,
    compare: (project, session) => `${p(project)}/compare/${seg(session)}`,
    compareRuns: (project, runs) =>
      `${p(project)}/compare-runs?${runs.map((r) => `run=${seg(r)}`).join('&')}`,
    label: (project, suite) => `${p(project)}/label/${seg(suite)}`,
    asset: (name) => `${base}/assets/${seg(name)}`,
  };
}

/**
 * A link for outside the dashboard (a CI comment, `rgate run --upload`'s output): the server's
 * public origin and a path from dashboardLinks. Example:
 * absoluteLink('https://rgate.example.com/', links.run('search', id))
 * @internal no production caller yet: only its tests import it
 */
export function absoluteLink(origin: string, path: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new RgateError(
      'usage',
      `server URL ${JSON.stringify(origin)} is not a URL`,
      'e.g. https://rgate.example.com',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RgateError(
      'usage',
      `server URL ${origin}: must be http or https`,
      'e.g. https://rgate.example.com',
    );
  }
  return url.origin + path;
}

/**
 * The Content-Security-Policy the server sends with every dashboard page (each page also carries it
 * in a meta element, so a page saved to disk keeps it): scripts only from this origin (chart.js and
 * the page scripts under /assets/), no inline script, no plug-ins, no framing, forms only here.
 * Inline styles stay allowed: the run report's layout uses them, and no uploaded text reaches a
 * style attribute (every value is escaped).
 */
export const DASHBOARD_CSP = `${FRAMED_PAGE_CSP}; frame-ancestors 'none'`;
