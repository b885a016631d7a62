/**
 * The dashboard's pages: `(view, links) => string`, a whole HTML document each, from the documents
 * history/dashboard-views.ts builds. Pages of their own (projects, project, trend, runs, diff) are
 * drawn from reports/dashboard/templates inside layout.hbs; the run report, the comparison and the
 * label queue are the existing pages, framed (a breadcrumb, scripts from /assets/). Every uploaded
 * string reaches a page through `{{ }}` (escaped) or a link from DashboardLinks (encoded segments),
 * and no page carries inline script: the server's CSP allows `script-src 'self'` only.
 */
import type {
  ComparePageView,
  RunsComparePageView,
  DashboardRun,
  DiffPageView,
  LabelQueuePageView,
  ProjectsIndexView,
  ProjectView,
  RunPageView,
  RunsListView,
  SuiteTrendView,
  VsBasePageView,
} from '../../src/documents/index.js';
import { vsBaseGateLines } from '../../gates/index.js';
import { jsonForScript } from '../escape.js';
import { renderSessionHtml } from '../history/compare.js';
import { renderLabelQueueHtml } from '../history/label-queue.js';
import { n4, signed, type ChartSpec } from '../history/shared.js';
import {
  measuredTrends,
  noAlarmLine,
  pairedLine,
  pointText,
  snapshotDifferences,
} from '../history/trends.js';
import { renderHtml } from '../run/html.js';
import { FRAMED_PAGE_CSP, template, type PageFrame } from '../templates.js';
import type { DashboardLinks, RunsQuery } from './links.js';
import { repositoryLinks } from './repository-links.js';
import { trendCharts } from './trend-charts.js';

type Crumb = { href: string | null; text: string };

/** A page of its own: `name`.hbs inside layout.hbs. */
function page(
  name: 'projects' | 'project' | 'trend' | 'runs' | 'diff' | 'message',
  links: DashboardLinks,
  title: string,
  nav: Crumb[],
  view: object,
  charts: readonly ChartSpec[] = [],
): string {
  return template(
    'dashboard',
    name,
  )({
    ...view,
    page: {
      title,
      csp: FRAMED_PAGE_CSP,
      css: links.asset('dashboard.css'),
      nav,
      charts: charts.length ? jsonForScript(charts.map((c) => ({ id: c.id, config: c.config }))) : null,
      chart_js: links.asset('chart.umd.js'),
      // the charts, and the runs list's times in the reader's zone; other pages load no script
      client: charts.length || name === 'runs' ? links.asset('dashboard.js') : null,
    },
  });
}

/** What an existing page (run report, comparison, label queue) needs to be served by the dashboard. */
function frame(links: DashboardLinks, nav: Crumb[], client: string): PageFrame {
  return {
    nav,
    css: links.asset('dashboard.css'),
    chart: links.asset('chart.umd.js'),
    client: links.asset(client),
  };
}

function projectCrumbs(links: DashboardLinks, project: string, here?: string): Crumb[] {
  const crumbs: Crumb[] = [
    { href: links.projects(), text: 'Projects' },
    { href: here === undefined ? null : links.project(project), text: project },
  ];
  if (here !== undefined) crumbs.push({ href: null, text: here });
  return crumbs;
}

const shortCommit = (c: string | null) => (c === null ? '' : c.slice(0, 12));

/** "branch main", "commit 1a2b3c4d5e6f": what an upload said it was made from. */
function gitWords(r: DashboardRun): string[] {
  return [
    ...(r.branch !== null ? [`branch ${r.branch}`] : []),
    ...(r.commit !== null ? [`commit ${shortCommit(r.commit)}`] : []),
  ];
}

function verdictText(r: { verdict: string | null; status: string }): string {
  if (r.verdict) return r.verdict;
  return r.status === 'complete' ? 'no gate' : '-';
}

interface RunRowOpts {
  suiteLinks?: boolean;
  baseline?: string | null;
  /** runs oldest -> newest of one suite: each complete run links a diff with the complete run before it */
  diffs?: boolean;
  /** a tick box per complete run, for the compare form around the table */
  select?: boolean;
  /** a column per metric, each row's values in `values` (as the runs) */
  metrics?: { columns: readonly string[]; values: readonly (readonly (number | null)[])[] };
  /** start times as <time> elements dashboard.js shows in the reader's time zone (UTC in the title) */
  localTimes?: boolean;
  /** the project's repository URL template: commits, branches and PRs as links */
  repositoryUrl?: string | null;
  /** a sortable header: the link that sorts by a column (a metric: `metric:<id>`), and how it is sorted now */
  sortHref?: (column: string) => { href: string; sorted: 'ascending' | 'descending' | null };
}

/** A header cell: its text, and when the table sorts, the link that sorts by it. */
function headCell(text: string, column: string | null, opts: RunRowOpts) {
  const s = column !== null && opts.sortHref ? opts.sortHref(column) : null;
  return {
    text,
    href: s?.href ?? null,
    aria_sort: s?.sorted ?? null,
    arrow: s?.sorted === 'ascending' ? ' ▲' : s?.sorted === 'descending' ? ' ▼' : '',
  };
}

/** runs-table.hbs's context. `runs` newest first. */
function runsTable(
  links: DashboardLinks,
  project: string,
  runs: readonly DashboardRun[],
  opts: RunRowOpts = {},
) {
  const baseline = opts.baseline ?? null;
  // the complete run before each run, in time order (runs are newest first)
  const previous = new Map<string, string>();
  let older: string | undefined;
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i]!;
    if (older !== undefined) previous.set(r.run_id, older);
    if (r.status === 'complete') older = r.run_id;
  }
  const metrics = opts.metrics ?? { columns: [], values: [] };
  return {
    diff_column: opts.diffs ?? false,
    select_column: opts.select ?? false,
    local_times: opts.localTimes ?? false,
    head_before: [
      headCell('run', null, opts),
      headCell('suite', 'suite', opts),
      headCell('verdict', 'verdict', opts),
      headCell('status', 'status', opts),
      headCell('branch', 'branch', opts),
      headCell('commit', 'commit', opts),
      headCell('started', 'started', opts),
    ],
    head_metrics: metrics.columns.map((id) => headCell(id, `metric:${id}`, opts)),
    rows: runs.map((r, i) => {
      const prev = previous.get(r.run_id);
      const complete = r.status === 'complete';
      const repo = repositoryLinks(opts.repositoryUrl ?? null, r);
      return {
        metrics: (metrics.values[i] ?? []).map((v) => (v === null ? '-' : n4(v))),
        branch_href: repo.branch,
        commit_href: repo.commit,
        commit_title: r.commit ?? '',
        pr: r.pr === null ? null : `#${r.pr}`,
        pr_href: repo.pr,
        started_title: `${r.started_at} (UTC)`,
        run_id: r.run_id,
        href: links.run(project, r.run_id),
        suite: r.suite,
        suite_href: opts.suiteLinks ? links.suite(project, r.suite) : null,
        verdict: verdictText(r),
        verdict_class: r.verdict ?? '',
        status: r.status,
        branch: r.branch ?? '',
        commit: shortCommit(r.commit),
        started_at: r.started_at,
        is_baseline: r.run_id === baseline,
        complete,
        diff_prev: complete && prev !== undefined ? links.diff(project, prev, r.run_id) : null,
        diff_baseline:
          complete && baseline !== null && r.run_id !== baseline
            ? links.diff(project, baseline, r.run_id)
            : null,
      };
    }),
  };
}

/** `/`: the projects the server knows. */
export function renderProjectsPage(v: ProjectsIndexView, links: DashboardLinks): string {
  return page('projects', links, 'Projects', [{ href: null, text: 'Projects' }], {
    projects: v.projects.map((p) => ({
      name: p.name,
      slug: p.slug,
      href: links.project(p.slug),
      run_count: p.run_count,
      run_id: p.newest?.run_id ?? '',
      run_href: p.newest ? links.run(p.slug, p.newest.run_id) : null,
      suite: p.newest?.suite ?? '',
      verdict: p.newest ? (p.newest.verdict ?? 'no gate') : '',
      verdict_class: p.newest?.verdict ?? '',
      started_at: p.newest?.started_at ?? '',
    })),
  });
}

/** `/p/:project`: suites with where each stands, the latest runs, the comparison sessions. */
export function renderProjectPage(v: ProjectView, links: DashboardLinks): string {
  const p = v.project;
  return page('project', links, `Project ${p}`, projectCrumbs(links, p), {
    project: p,
    run_count: v.run_count,
    runs_href: links.runs(p),
    suites: v.suites.map((s) => {
      const stands = s.newest_complete;
      return {
        suite: s.suite,
        href: links.suite(p, s.suite),
        run_count: s.run_count,
        verdict: stands ? verdictText(stands) : 'no complete run',
        verdict_class: stands?.verdict ?? '',
        newest_id: s.newest.run_id,
        newest_href: links.run(p, s.newest.run_id),
        newest_status: s.newest.status === 'complete' ? '' : `(${s.newest.status})`,
        branch: s.newest.branch ?? '',
        started_at: s.newest.started_at,
        baseline_id: s.baseline_run_id ?? '',
        baseline_href: s.baseline_run_id !== null ? links.run(p, s.baseline_run_id) : null,
        runs_href: links.runs(p, { suite: s.suite }),
        label_href: links.label(p, s.suite),
      };
    }),
    latest: runsTable(links, p, v.latest_runs, { suiteLinks: true }),
    sessions: v.compare_sessions.map((s) => ({ ...s, href: links.compare(p, s.session_id) })),
  });
}

/** `/p/:project/suites/:suite`: every gate metric's trend, the baseline, the alarms with the newest verdict. */
export function renderSuiteTrendPage(v: SuiteTrendView, links: DashboardLinks): string {
  const p = v.project;
  const h = v.history;
  const charts = trendCharts(v);
  const baselineRun = v.baseline?.in_window ? v.baseline.run_id : null;
  const newest = v.newest;
  const window = v.window;
  return page(
    'trend',
    links,
    `Suite ${v.suite} · ${p}`,
    projectCrumbs(links, p, `suite ${v.suite}`),
    {
      suite: v.suite,
      baseline_command: `rgate baseline set ${v.suite} <run-id> --upload <server-url> --project ${p}`,
      window_text:
        `The newest ${window.runs} run(s) of this suite (${h.runs.length} complete)` +
        (window.more ? `; older runs are not in this window (at most ${window.limit}).` : '.'),
      runs_href: links.runs(p, { suite: v.suite }),
      label_href: links.label(p, v.suite),
      newest: newest
        ? {
            run_id: newest.run_id,
            href: links.run(p, newest.run_id),
            verdict: verdictText(newest),
            verdict_class: newest.verdict ?? '',
            banner_class: newest.verdict ?? 'INFO',
            status: newest.status,
            branch: newest.branch ?? '',
            commit: shortCommit(newest.commit),
            started_at: newest.started_at,
          }
        : null,
      alarms: h.alarms.map((text) => ({ text })),
      no_alarm: noAlarmLine(h),
      paired: pairedLine(h) ?? '',
      baseline: v.baseline
        ? {
            run_id: v.baseline.run_id,
            href: links.run(p, v.baseline.run_id),
            note: v.baseline.note ?? '',
            in_window: v.baseline.in_window,
          }
        : null,
      chart_list: charts.map((c) => ({ id: c.id, title: c.title, wide: c.size?.wide ?? false })),
      has_changes: h.runs.some((r) => r.change),
      trends: measuredTrends(h).map((t) => {
        const base = baselineRun === null ? undefined : t.points.find((pt) => pt.run_id === baselineRun);
        return {
          metric: t.metric,
          gate_metric: t.gate_metric,
          sparkline: t.sparkline,
          latest: pointText(t.latest, t.kind),
          delta: signed(t.delta),
          baseline: base ? pointText(base.value, t.kind) : '',
          rule_status: t.rule_status ?? '',
          rule_class: t.rule_status ? t.rule_status.toUpperCase() : '',
          alarm: t.alarm ?? '',
        };
      }),
      not_applicable: h.not_applicable,
      runs: runsTable(links, p, [...v.runs].reverse(), { baseline: v.baseline?.run_id ?? null, diffs: true }),
      changes: h.runs.filter((r) => r.change).map((r) => ({ run_id: r.run_id, change: r.change })),
    },
    charts,
  );
}

/** `/p/:project/runs`: the runs, filtered and sorted, one page at a time, a column per metric. */
export function renderRunsListPage(v: RunsListView, links: DashboardLinks): string {
  const p = v.project;
  const f = v.filter;
  // what every link of the page keeps: the filter (a page, a sort start over from the first page)
  const kept: RunsQuery = {
    suite: f.suite,
    branch: f.branch,
    verdict: f.verdict,
    metric: f.metric,
    metric_min: f.metric_min,
    metric_max: f.metric_max,
    limit: f.limit,
  };
  const sorted = { sort: f.sort, order: f.order };
  const current = f.sort ?? 'started';
  const order = f.order ?? 'desc';
  const range = [
    f.metric_min !== undefined ? `${f.metric} >= ${f.metric_min}` : '',
    f.metric_max !== undefined ? `${f.metric} <= ${f.metric_max}` : '',
  ];
  const filtered = [
    f.suite !== undefined ? `suite ${f.suite}` : '',
    f.branch !== undefined ? `branch ${f.branch}` : '',
    f.verdict !== undefined ? `verdict ${f.verdict}` : '',
    ...range,
  ]
    .filter(Boolean)
    .join(', ');
  const orderWords =
    f.sort === undefined && order === 'desc'
      ? 'newest first'
      : `by ${current.replace(/^metric:/, '')}, ${order === 'asc' ? 'ascending' : 'descending'}`;
  return page('runs', links, `Runs · ${p}`, projectCrumbs(links, p, 'runs'), {
    project: p,
    action: links.runs(p),
    suites: v.suites.map((s) => ({ value: s, selected: s === f.suite })),
    branches: v.branches.map((b) => ({ value: b, selected: b === f.branch })),
    verdicts: VERDICT_CHOICES.map((x) => ({ value: x, selected: x === f.verdict })),
    metric: f.metric ?? '',
    metric_min: f.metric_min ?? '',
    metric_max: f.metric_max ?? '',
    metric_choices: v.metric_columns,
    sort: f.sort ?? '',
    order: f.order ?? '',
    summary:
      `${v.runs.length} run(s)${filtered ? ` of ${filtered}` : ''}, ${orderWords}` +
      (f.before !== undefined ? `, older than ${f.before}` : '') +
      (f.offset !== undefined ? `, after the first ${f.offset}` : '') +
      '. Times are in your time zone (UTC on hover).',
    table: runsTable(links, p, v.runs, {
      suiteLinks: true,
      select: true,
      localTimes: true,
      metrics: { columns: v.metric_columns, values: v.metric_values },
      repositoryUrl: v.repository_url,
      sortHref: (column) => {
        const now = column === current ? order : null;
        // a column sorted now flips; another starts the way its readers look first: names A-Z,
        // times, verdicts and measures from the top
        const next =
          now !== null ? (now === 'asc' ? 'desc' : 'asc') : ASCENDING_FIRST.has(column) ? 'asc' : 'desc';
        const href =
          column === 'started' && next === 'desc'
            ? links.runs(p, kept)
            : links.runs(p, { ...kept, sort: column, order: next });
        return { href, sorted: now === null ? null : now === 'asc' ? 'ascending' : 'descending' };
      },
    }),
    compare_action: links.compareRuns(p, []).replace(/\?$/, ''),
    first_href:
      f.before !== undefined || f.offset !== undefined ? links.runs(p, { ...kept, ...sorted }) : null,
    next_href:
      v.next_before !== null
        ? links.runs(p, { ...kept, ...sorted, before: v.next_before })
        : v.next_offset !== null
          ? links.runs(p, { ...kept, ...sorted, offset: v.next_offset })
          : null,
  });
}

const VERDICT_CHOICES = ['FAIL', 'WATCH', 'PASS', 'NONE'] as const;
const ASCENDING_FIRST = new Set(['suite', 'branch', 'commit', 'status']);

/** `/p/:project/runs/:run`: the run's own HTML report, framed; a note when the run stored none. */
export function renderRunPage(v: RunPageView, links: DashboardLinks): string {
  const p = v.project;
  const nav: Crumb[] = [
    { href: links.projects(), text: 'Projects' },
    { href: links.project(p), text: p },
    { href: links.suite(p, v.run.suite), text: `suite ${v.run.suite}` },
    { href: null, text: [`run ${v.run.run_id}`, ...gitWords(v.run)].join(' · ') },
  ];
  // a branch's run: its comparison with the base branch's run, one click away
  if (v.base_run) nav.push({ href: links.vsBase(p, v.run.run_id), text: `vs base run ${v.base_run.run_id}` });
  if (v.report) {
    return renderHtml(v.report, {
      history: v.history ?? undefined,
      frame: frame(links, nav, 'report-client.js'),
    });
  }
  return page('message', links, `Run ${v.run.run_id} · ${p}`, nav, {
    heading: `Run ${v.run.run_id}`,
    lines: [
      `Suite ${v.run.suite}, started ${v.run.started_at}, ${v.run.status}: ${v.run.observation_count} observation(s) stored.`,
      'This run stored no report (it did not finish), so there is nothing to show beyond this line.',
    ],
    command: '',
  });
}

/** `/p/:project/diff/:a/:b`: what changed per query and per measure between two runs. */
export function renderDiffPage(v: DiffPageView, links: DashboardLinks): string {
  const p = v.project;
  const d = v.diff;
  const side = (label: string, r: DashboardRun) => ({
    label,
    run_id: r.run_id,
    href: links.run(p, r.run_id),
    suite: r.suite,
    verdict: verdictText(r),
    verdict_class: r.verdict ?? '',
    branch: r.branch ?? '',
    commit: shortCommit(r.commit),
    started_at: r.started_at,
  });
  const rows = (list: typeof d.regressions) =>
    list.map((c) => ({ query_id: c.query_id, text: c.text, changes: c.changes.join('; ') }));
  return page('diff', links, `Diff ${v.a.run_id} vs ${v.b.run_id} · ${p}`, projectCrumbs(links, p, 'diff'), {
    sides: [side('a (reference)', v.a), side('b (candidate)', v.b)],
    snapshot_differences: d.same_snapshot ? [] : snapshotDifferences(d),
    counts:
      `${d.regressions.length} regression(s), ${d.improvements.length} improvement(s), ` +
      `${d.other_changes.length} other change(s), ${d.unchanged} unchanged quer${d.unchanged === 1 ? 'y' : 'ies'}.`,
    metrics: d.metrics.map((m) => ({ measure: m.measure, a: n4(m.a), b: n4(m.b), delta: signed(m.delta) })),
    groups: [
      { title: 'Regressions', rows: rows(d.regressions) },
      { title: 'Improvements', rows: rows(d.improvements) },
      { title: 'Other changes', rows: rows(d.other_changes) },
    ],
    only_a: d.only_in_a,
    only_b: d.only_in_b,
  });
}

/** `/p/:project/compare/:session`: the comparison page `rgate compare --html` writes, framed. */
export function renderComparePage(v: ComparePageView, links: DashboardLinks): string {
  const p = v.project;
  return renderSessionHtml(v.session, {
    ...frame(
      links,
      projectCrumbs(links, p, `compare ${v.session.environment.session_id}`),
      'charts-client.js',
    ),
    // variant runs are in no runs list (not nightly history): this page is their way in
    runHref: (runId) => links.run(p, runId),
  });
}

/**
 * `/p/:project/compare-runs?run=...`: stored runs compared as `rgate compare` compares variants, on
 * the comparison page: each run linked to its page, each pair's top-1 flips to its per-query diff.
 */
export function renderRunsComparePage(v: RunsComparePageView, links: DashboardLinks): string {
  const p = v.project;
  return renderSessionHtml(v.session, {
    ...frame(links, projectCrumbs(links, p, `compare ${v.runs.length} runs`), 'charts-client.js'),
    runHref: (runId) => links.run(p, runId),
    diffHref: (a, b) => links.diff(p, a, b),
  });
}

/**
 * `/p/:project/runs/:run/vs-base`: a branch's run against its base run, the compare page with the
 * base run as reference and a sentence naming it and why it was chosen.
 */
export function renderVsBasePage(v: VsBasePageView, links: DashboardLinks): string {
  const p = v.compare.project;
  const how = v.base.chosen_by === 'merge_base' ? 'merge-base run' : 'newest base-branch run';
  return renderSessionHtml(v.compare.session, {
    ...frame(links, projectCrumbs(links, p, `run ${v.run_id} vs base`), 'charts-client.js'),
    runHref: (runId) => links.run(p, runId),
    diffHref: (a, b) => links.diff(p, a, b),
    note: `Run ${v.run_id} against base run ${v.base.run_id} (the reference; ${how}): ${v.base.why}.`,
    // the run's vs_base gate rules, judged against this base run with the tests below
    ...(v.gate ? { notes: vsBaseGateLines(v.gate) } : {}),
  });
}

/**
 * `/p/:project/label/:suite`: the grading page `rgate label queue` writes, framed (grades stay in the
 * reviewer's browser and download as JSONL: the server takes none); a note when the server could
 * not build the queue.
 */
export function renderLabelQueuePage(v: LabelQueuePageView, links: DashboardLinks): string {
  const p = v.project;
  const nav = projectCrumbs(links, p, `label queue ${v.suite}`);
  if (v.queue) return renderLabelQueueHtml(v.queue, frame(links, nav, 'label-queue-client.js'));
  return page('message', links, `Label queue ${v.suite} · ${p}`, nav, {
    heading: `Label queue of suite ${v.suite}`,
    lines: [
      v.source ? `Pooled from ${v.source.kind} ${v.source.id}.` : '',
      `Not available on this server: ${v.why ?? 'no queue'}.`,
    ].filter(Boolean),
    command: v.source ? `rgate label queue ${v.source.id}` : '',
  });
}

/**
 * A page that says why there is nothing to show (no such run, a private project, a bad `limit`), in
 * the dashboard's look: the server answers it with its 4xx status.
 */
export function renderMessagePage(heading: string, message: string, links: DashboardLinks): string {
  return page('message', links, heading, [{ href: links.projects(), text: 'Projects' }], {
    heading,
    lines: [message],
    command: '',
  });
}
