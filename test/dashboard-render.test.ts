import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  absoluteLink,
  DASHBOARD_CSP,
  dashboardAssets,
  dashboardLinks,
  renderRunsListPage,
  renderSuiteTrendPage,
} from '../reports/dashboard/index.js';
import { trendCharts } from '../reports/dashboard/trend-charts.js';
import { FRAMED_PAGE_CSP } from '../reports/templates.js';
import { runsListView, suiteTrendView } from '../history/dashboard-views.js';
import {
  filledProjectViews,
  fillProject,
  hostileProjectPages,
  PAYLOADS,
  projectPages,
  projectStore,
  type Project,
} from './dashboard-helpers.js';

const links = dashboardLinks();

describe('dashboard links', () => {
  it('follow the one URL scheme', () => {
    expect(links.projects()).toBe('/');
    expect(links.project('search')).toBe('/p/search');
    expect(links.suite('search', 'nightly')).toBe('/p/search/suites/nightly');
    expect(links.runs('search')).toBe('/p/search/runs');
    expect(links.runs('search', { suite: 'a b', branch: 'feat/x', before: 'r1', limit: 20 })).toBe(
      '/p/search/runs?suite=a%20b&branch=feat%2Fx&before=r1&limit=20',
    );
    expect(links.run('search', 'r1')).toBe('/p/search/runs/r1');
    expect(links.diff('search', 'r1', 'r2')).toBe('/p/search/diff/r1/r2');
    expect(links.compare('search', 'cmp-1')).toBe('/p/search/compare/cmp-1');
    expect(links.label('search', 'nightly')).toBe('/p/search/label/nightly');
    expect(links.asset('chart.umd.js')).toBe('/assets/chart.umd.js');
    expect(dashboardLinks('/rgate').run('p', 'r')).toBe('/rgate/p/p/runs/r');
  });

  it('turn every uploaded name into one encoded path segment on this origin', () => {
    for (const payload of Object.values(PAYLOADS)) {
      for (const href of [
        links.project(payload),
        links.run('p', payload),
        links.suite(payload, payload),
        links.runs('p', { branch: payload, suite: payload, before: payload }),
      ]) {
        expect(href.startsWith('/p/')).toBe(true);
        expect(href).not.toMatch(/[<>"' ]|\/\/|javascript:/);
        expect(new URL(href, 'http://dash.test').origin).toBe('http://dash.test');
      }
    }
    expect(links.run('p', '../../admin')).toBe('/p/p/runs/..%2F..%2Fadmin');
  });

  it('refuse a base path that could leave the origin, and build absolute links for CI comments', () => {
    expect(() => dashboardLinks('//evil.example')).toThrow(/base path/);
    expect(() => dashboardLinks('rgate')).toThrow(/base path/);
    expect(absoluteLink('https://rgate.example.com/ignored', links.run('search', 'r 1'))).toBe(
      'https://rgate.example.com/p/search/runs/r%201',
    );
    expect(() => absoluteLink('javascript:alert(1)', '/')).toThrow(/http or https/);
    expect(() => absoluteLink('not a url', '/')).toThrow(/not a URL/);
  });

  it('the CSP the server sends: the pages own policy plus no framing', () => {
    expect(DASHBOARD_CSP).toBe(`${FRAMED_PAGE_CSP}; frame-ancestors 'none'`);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
  });
});

describe('dashboard assets', () => {
  it('name every file a page loads, each readable with its type', () => {
    const assets = dashboardAssets();
    expect(Object.keys(assets).sort()).toEqual([
      'chart.umd.js',
      'charts-client.js',
      'dashboard.css',
      'dashboard.js',
      'label-queue-client.js',
      'report-client.js',
    ]);
    for (const [name, a] of Object.entries(assets)) {
      const body = 'path' in a ? (existsSync(a.path) ? readFileSync(a.path, 'utf8') : '') : a.content;
      expect(body.length, name).toBeGreaterThan(100);
      expect(a.type).toMatch(name.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    }
  });
});

/** Every attribute that loads or links something, with its value (as written, entities decoded). */
function urlAttributes(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) =>
    m[1]!.replace(/&amp;/g, '&').replace(/&#x3D;/g, '='),
  );
}

function checkPage(name: string, html: string): void {
  // no inline script and no event handler attribute: the server's CSP allows script-src 'self' only
  expect(html.match(/<script(?![^>]*\s(?:src="|type="application\/json"))[^>]*>/g), name).toBeNull();
  expect(html.match(/<[^<>]*\son[a-z]+\s*=/gi), name).toBeNull();
  expect(html, name).toContain(`content="${FRAMED_PAGE_CSP.replace(/'/g, '&#x27;')}"`);
  for (const url of urlAttributes(html)) {
    expect(url.startsWith('/') && !url.startsWith('//'), `${name}: ${url}`).toBe(true);
  }
  // no payload survives as markup
  expect(html, name).not.toContain(PAYLOADS.script);
  expect(html, name).not.toContain(PAYLOADS.attribute);
}

describe('dashboard pages', () => {
  let p: Project;
  let hostile: Project;
  beforeAll(async () => {
    p = projectStore();
    await fillProject(p);
    hostile = projectStore();
  }, 120_000);
  afterAll(() => {
    p.cleanup();
    hostile.cleanup();
  });

  it('draw every page of a real project with links on this origin and no inline script', async () => {
    const pages = await projectPages(p.store, 'search', links, {
      ...filledProjectViews(),
      projects: [{ slug: 'search', name: 'Search', run_count: 8, newest: null }],
    });
    expect(pages.size).toBe(10);
    for (const [path, html] of pages) checkPage(path, html);
    const trend = pages.get(links.suite('search', 'nightly'))!;
    expect(trend).toContain('Newest run n-6: FAIL');
    // the newest verdict beside the alarm, the baseline marked
    expect(trend).toMatch(
      /top1_useful_rate dropped to 0\.6 in n-6[^<]*<\/span> · newest run <a href="\/p\/search\/runs\/n-6">/,
    );
    expect(trend).toContain('<strong>(baseline)</strong>');
    expect(trend).toContain('href="/p/search/diff/n-2/n-6"');
    const run = pages.get(links.run('search', 'ctx-2'))!;
    expect(run).toContain('<nav class="crumbs" aria-label="Breadcrumb">');
    expect(run).toContain('<script src="/assets/report-client.js"></script>');
    const label = pages.get(links.label('search', 'context-load'))!;
    expect(label).toContain('<script src="/assets/label-queue-client.js"></script>');
    const runs = pages.get(links.runs('search'))!;
    expect(runs).toContain('href="/p/search/runs?before&#x3D;n-6&amp;limit&#x3D;3"');
  });

  it('keep every hostile upload inert: ids, suite names, branches, commits, query and system text', async () => {
    const { pages, suite, session } = await hostileProjectPages(hostile, links);
    for (const [path, html] of pages) checkPage(path, html);
    expect(pages.size).toBe(8);
    // filter values from the query string come back in the form and the summary, escaped
    const filtered = await runsListView(hostile.store, PAYLOADS.url, { suite, branch: PAYLOADS.attribute });
    const runsPage = renderRunsListPage(filtered, links);
    checkPage('runs?branch=payload', runsPage);
    expect(runsPage).toContain('of suite &lt;script&gt;alert(1)&lt;/script&gt;');
    // the queue was built (not the page saying it cannot be): hostile doc ids, titles and paths escaped
    const label = pages.get(links.label(PAYLOADS.url, 'ctx'))!;
    expect(label).toContain('data-doc="&lt;b&gt;q1&lt;/b&gt;"');
    expect(label).toContain('<code>javascript:alert(1)/&lt;b&gt;q1&lt;/b&gt;</code>');
    expect(pages.get(links.compare(PAYLOADS.url, session))).toContain('<nav class="crumbs"');
    const trend = pages.get(links.suite(PAYLOADS.url, suite))!;
    expect(trend).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(trend).toContain('&quot; onmouseover&#x3D;&quot;alert(1)&quot; x&#x3D;&quot;');
  });

  it('runs list: sorting headers, metric cells, local times and repository links from the template', async () => {
    const v = await runsListView(
      p.store,
      'search',
      { suite: 'nightly', sort: 'verdict', order: 'desc' },
      { repositoryUrl: 'https://git.example/o/r/commit/{commit}' },
    );
    v.runs[0]!.commit = 'c0ffee/"><b>x';
    v.runs[0]!.branch = 'feat/x';
    v.runs[0]!.pr = 42;
    // handlebars writes `=` in an attribute as &#x3D;: the same URL to a browser
    const draw = (view: typeof v) => renderRunsListPage(view, links).replaceAll('&#x3D;', '=');
    const html = draw(v);
    // the commit links through the template, one encoded segment; the branch and PR stay text
    expect(html).toContain('<a href="https://git.example/o/r/commit/c0ffee%2F%22%3E%3Cb%3Ex" title=');
    expect(html).toContain('<td>feat/x #42</td>');
    // the column sorted now flips its order; another sorts its own way first; the filter is kept
    expect(html).toContain(
      '<th scope="col" aria-sort="descending"><a href="/p/search/runs?suite=nightly&amp;sort=verdict&amp;order=asc">verdict ▼</a></th>',
    );
    expect(html).toContain('<a href="/p/search/runs?suite=nightly&amp;sort=suite&amp;order=asc">suite</a>');
    expect(html).toContain('<a href="/p/search/runs?suite=nightly">started</a>');
    for (const id of v.metric_columns) {
      expect(html).toContain(`sort=metric%3A${encodeURIComponent(id)}&amp;order=desc">${id}</a>`);
    }
    expect(html).toMatch(/<td class="num">\d(\.\d{1,4})?<\/td>/);
    expect(html).toContain(
      `<time datetime="${v.runs[0]!.started_at}" title="${v.runs[0]!.started_at} (UTC)">`,
    );
    expect(html).toContain('<script src="/assets/dashboard.js"></script>');
    // a template of branches and PRs links both where the run names both, and nothing where not
    const both = draw({ ...v, repository_url: 'https://git.example/o/r/pull/{pr}?from={branch}' });
    expect(both).toContain('<a href="https://git.example/o/r/pull/42?from=feat%2Fx">feat/x</a>');
    expect(both).toContain('<a href="https://git.example/o/r/pull/42?from=feat%2Fx">#42</a>');
    expect(both.match(/git\.example/g)).toHaveLength(2);
    // no template (or one that is not http), no links
    for (const repository_url of [null, 'javascript:alert(1)//{commit}']) {
      expect(draw({ ...v, repository_url })).not.toContain('git.example');
      expect(draw({ ...v, repository_url })).not.toContain('javascript:');
    }
  });

  it('chart one series per branch and the baseline as a star', async () => {
    const v = await suiteTrendView(p.store, 'search', 'nightly');
    v.runs.forEach((r, i) => {
      r.branch = i % 2 ? 'feat/x' : 'main';
      r.commit = `c0ffee${i}`.padEnd(40, '0');
    });
    v.newest = v.runs[v.runs.length - 1]!;
    const charts = trendCharts(v);
    expect(charts.map((c) => c.id)).toEqual(['trend-0', 'trend-1']);
    const config = charts[0]!.config as {
      data: { labels: string[]; datasets: { label: string; data: (number | null)[]; pointStyle: unknown }[] };
    };
    expect(config.data.datasets.map((d) => d.label)).toEqual([
      'branch feat/x',
      'branch main',
      'baseline n-2',
    ]);
    expect(config.data.labels).toEqual(['c0ffee0', 'c0ffee1', 'c0ffee2', 'c0ffee4', 'c0ffee5']);
    expect(config.data.datasets[2]!.data).toEqual([null, 0.9, null, null, null]);
    expect(config.data.datasets[2]!.pointStyle).toBe('star');
    expect(config.data.datasets[1]!.data).toEqual([0.88, null, 0.9, 0.92, null]);
    const html = renderSuiteTrendPage(v, links);
    expect(html).toContain('on branch feat/x at c0ffee500000');
  });
});
