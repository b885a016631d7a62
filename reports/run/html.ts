/**
 * The HTML report: one self-contained file (styles, chart.js and the client script inlined; no
 * network) rendered from reports/run/templates/report.hbs in the environment of reports/templates.ts.
 * Hostile text from corpora and queries only reaches the page through `{{ }}` (HTML-escaped) or the
 * JSON data block (jsonForScript), and a Content-Security-Policy allows exactly the two inline
 * scripts by hash, so even a missed escape could not run a planted `<script>`.
 */
import { DETECTABLE_HEADING, detectableLines, HOLES_HEADING, holesLines } from './detectable.js';
import { ms, TIMING_METRICS } from '../../gates/index.js';
import { compareCodeUnits } from '../../src/core/canonical-json.js';
import {
  PACKED_MIN_QUERIES,
  type HistoryView as HistoryViewModel,
  type QueryOutcome,
  type Report,
} from '../../src/documents/index.js';
import { jsonForScript } from '../escape.js';
import { chartJs, clientScript, cspHash, FRAMED_PAGE_CSP, template, type PageFrame } from '../templates.js';
import { trendSection } from './html-trend.js';
import {
  actualText,
  fallbackReasonText,
  bannerTitle,
  expectedText,
  hiddenMetrics,
  hiddenText,
  isGated,
  metricRows,
  statusWord,
  replaySummary,
  selectionApplies,
  selectionModeRows,
  whyFailing,
  countsAgainst,
  unmetExpectations,
  unmetTitle,
  notApplicableRows,
  semanticWinText,
  rankedEntriesText,
  weightingText,
  unrankedText,
  displayGate,
  top1SplitText,
} from './view.js';
import { errorView, stabilityOf } from './view-errors.js';
import { fallbackReasonView, warningView, violationView, peerFigureViews } from './view-findings.js';

export interface HtmlOptions {
  /** override where chart.js is read from (tests) */
  chartJsPath?: string;
  /**
   * The suite's run history (harness/history-upto.ts); with at least one earlier run the report
   * gains a trend chart per gate metric. Runs after this report's run are ignored.
   */
  history?: HistoryViewModel | undefined;
  /** served by the dashboard: a breadcrumb, and scripts from its /assets/ instead of inlined */
  frame?: PageFrame | undefined;
}

type QueryStatus = 'hit' | 'miss' | 'error' | 'not counted';

/**
 * error: the request failed; miss: the query counts against the run (the harness's failure reasons);
 * hit: it counts in the numerator of its headline measure; not counted: no measure judges it here (no
 * judgment, or a probe where the system has no selection step). A judged benchmark query without a
 * failure reason has a useful top-1 that its measure counts (a top-1 reached by fallback where the
 * semantic win is what counts has a reason), so only stored facts are read here.
 */
function queryStatus(q: QueryOutcome, selection: boolean, counted: boolean): QueryStatus {
  if (!q.actual.ok) return 'error';
  if (whyFailing(q) !== '') {
    // a probe whose one reason is its unmet expectation and that is not among the failing queries is
    // not gated: shown with its reason, not as a miss
    const ungated =
      !counted && q.kind === 'probe' && q.expectation_met === false && q.failure_reasons?.length === 1;
    return ungated ? 'not counted' : 'miss';
  }
  if (q.kind === 'probe') return selection && q.expectation_met === true ? 'hit' : 'not counted';
  if (q.judged === false) return 'not counted';
  return q.top1 === 'useful' ? 'hit' : 'not counted';
}

/** Status words with a shape, so colour is never the only signal. */
export const STATUS_MARK: Record<string, string> = {
  PASS: '\u2713 PASS',
  WATCH: '\u25B2 WATCH',
  FAIL: '\u2717 FAIL',
  'NO GATE': '\u25CB NO GATE',
  'NOT EVALUATED': '\u25CB NOT EVALUATED',
};

function uniqueSorted(xs: string[]): string[] {
  return [...new Set(xs.filter(Boolean))].sort(compareCodeUnits);
}

/** The view the template draws; every string in it is escaped by handlebars at render time. */
export function htmlView(report: Report, history?: HistoryViewModel) {
  const g = displayGate(report);
  const rows = metricViewRows(report);
  const selection = selectionApplies(report);
  const { queries, unlisted } = listedRows(queryRows(report, selection));
  const charted = rows.filter((r) => r.chart);
  const trend = trendSection(report, history);
  const data = chartData(report, charted, trend);
  return {
    verdict: g.verdict,
    banner: { ...bannerTitle(report), css: isGated(report) ? g.verdict : 'NOGATE' },
    banner_mark: STATUS_MARK[bannerTitle(report).status] ?? '',
    hidden: hiddenText(hiddenMetrics(report)),
    judging: report.judging?.top1_useful_rule ?? '',
    top1_split: top1SplitText(report) ?? '',
    detectable: detectableLines(report),
    detectable_heading: DETECTABLE_HEADING,
    holes: holesLines(report),
    holes_heading: HOLES_HEADING,
    selection,
    gated: isGated(report),
    gate_id: g.gate_id,
    gate_version: g.gate_version,
    suite: report.suite,
    system_name: report.system.name,
    system_kind: report.system.kind,
    system_contract: report.system.contract,
    run_id: report.environment.run_id,
    started_at: report.environment.started_at,
    replays: report.settings.replays,
    seed: report.settings.seed,
    reasons: g.reasons,
    semantic_wins: semanticWinText(report),
    ranked_entries: rankedEntriesText(report),
    weighting: weightingText(report.system.weighting),
    // the unranked column only where some answer carried entries the suite does not rank
    has_unranked: queries.some((q) => q.unranked !== ''),
    rows,
    checklist: g.checklist,
    charts: { metrics: Boolean(data.metrics), modes: Boolean(data.modes), latency: Boolean(data.latency) },
    // one horizontal bar per charted metric: the box grows with them, wide past six
    chart_sizes: { metrics: Math.max(200, 70 + 34 * charted.length), metrics_wide: charted.length > 6 },
    filters: {
      statuses: uniqueSorted(queries.map((q) => q.status)),
      modes: uniqueSorted(queries.map((q) => q.mode)),
      profiles: uniqueSorted(queries.map((q) => q.profile)),
    },
    queries,
    unlisted,
    errors: errorView(report),
    warnings: warningView(report),
    fallback_reasons: fallbackReasonView(report),
    violations: violationView(report) ?? null,
    peers: peerFigureViews(report),
    unmet: { title: unmetTitle(unmetExpectations(report).length), rows: unmetExpectations(report) },
    not_applicable: notApplicableRows(report),
    replay: replayView(report),
    artifacts: artifactRows(report),
    baseline: report.baseline?.source ?? '',
    environment: report.environment,
    wall: ms(report.timing.wall_ms),
    trend: trend
      ? {
          prior: trend.prior,
          charts: trend.charts,
          runs: trend.runs,
          other_runs: trend.other_runs,
          compared_with: trend.compared_with,
          alarms: trend.alarms,
        }
      : null,
    data,
  };
}

/** The metric rows with their status words (a shape beside the colour). */
function metricViewRows(report: Report) {
  return metricRows(report).map((r) => ({
    ...r,
    // a vs_base rule is drawn as information: it is no pass or fail here
    ...(r.status === 'not_evaluated' ? { status: 'info' } : {}),
    statusText: r.status === 'info' ? '' : (STATUS_MARK[statusWord(r.status)] ?? statusWord(r.status)),
  }));
}

type QueryRow = ReturnType<typeof queryRows>[number];

/**
 * A run of more than LIST_ALL_MAX_QUERIES queries lists only those that count against it (an error, a
 * miss, a failure reason): a 10,000-query page was 5 MB of rows nobody reads; every query stays in
 * report.json, which the page names (docs/DECISIONS.md, 2026-11-28).
 */
export const LIST_ALL_MAX_QUERIES = PACKED_MIN_QUERIES;

function listedRows(rows: QueryRow[]): { queries: QueryRow[]; unlisted: string } {
  if (rows.length <= LIST_ALL_MAX_QUERIES) return { queries: rows, unlisted: '' };
  const queries = rows.filter((q) => q.status === 'error' || q.status === 'miss' || q.why !== '');
  const rest = rows.length - queries.length;
  if (rest === 0) return { queries, unlisted: '' };
  const hits = rows.filter((q) => q.status === 'hit' && q.why === '').length;
  const split = [hits ? `${hits} hit` : '', rest - hits ? `${rest - hits} not counted` : ''].filter(Boolean);
  return {
    queries,
    unlisted:
      `The other ${rest} of the run's ${rows.length} queries (${split.join(', ')}) are not listed: a run ` +
      `of more than ${LIST_ALL_MAX_QUERIES} queries lists only the queries that fail. Every query is in ` +
      `the run's report.json (packed: its query_table), which rgate report <run> -f json prints.`,
  };
}

/** Every query's row, failing first, then report order: a reviewer opens the page to see what broke. */
function queryRows(report: Report, selection: boolean) {
  const order: Record<QueryStatus, number> = { error: 0, miss: 1, hit: 2, 'not counted': 3 };
  const counts = countsAgainst(report);
  return report.queries
    .map((q, i) => ({ q, i, status: queryStatus(q, selection, counts(q)) }))
    .sort((a, b) => order[a.status] - order[b.status] || a.i - b.i)
    .map(({ q, status }) => ({
      query_id: q.query_id,
      text: q.text,
      kind: q.kind,
      profile: q.profile ?? '',
      mode: q.actual.ok ? (q.actual.selection_mode ?? '(none)') : 'error',
      expected: expectedText(q),
      actual: actualText(q),
      fallback_reason: fallbackReasonText(q),
      status,
      status_class: status.replace(' ', '-'),
      why: q.not_applicable ? `not applicable: ${q.not_applicable}` : whyFailing(q),
      deterministic: q.deterministic,
      ...stabilityOf(q),
      unranked: unrankedText(q),
    }));
}

/** The JSON data block the client script draws its charts and filters from (null: no such chart). */
function chartData(
  report: Report,
  charted: ReturnType<typeof metricViewRows>,
  trend: ReturnType<typeof trendSection>,
) {
  const modes = selectionModeRows(report);
  const latency = latencyRows(report);
  const latencyRule = displayGate(report).rules.find((r) => TIMING_METRICS.includes(r.metric));
  return {
    metrics: charted.length
      ? {
          labels: charted.map((r) => r.label),
          observed: charted.map((r) => r.chart!.observed),
          threshold: charted.map((r) => r.chart!.threshold),
          status: charted.map((r) => r.status),
          marks: charted.map((r) => STATUS_MARK[r.status.toUpperCase()] ?? ''),
        }
      : null,
    modes: modes.some((m) => m.queries > 0)
      ? {
          labels: modes.map((m) => m.mode),
          useful: modes.map((m) => m.useful),
          not_useful: modes.map((m) => m.not_useful),
        }
      : null,
    latency: latency.length
      ? {
          labels: latency.map(([k]) => k),
          p50: latency.map(([, v]) => (v.kind === 'quantiles' ? v.p50 : null)),
          p95: latency.map(([, v]) => (v.kind === 'quantiles' ? v.p95 : null)),
          p99: latency.map(([, v]) => (v.kind === 'quantiles' ? v.p99 : null)),
          limit: latencyRule ? latencyRule.threshold : null,
          limit_label: latencyRule ? `limit ${ms(latencyRule.threshold)}` : '',
        }
      : null,
    trend: trend ? trend.data : null,
  };
}

/** The latency quantiles with answers to them, `all` first, then by key. */
function latencyRows(report: Report) {
  const latencyKeys = Object.keys(report.timing.latency_ms).sort((a, b) =>
    a === 'all' ? -1 : b === 'all' ? 1 : compareCodeUnits(a, b),
  );
  return latencyKeys
    .map((k) => [k, report.timing.latency_ms[k]!] as const)
    .filter(([, v]) => v.kind === 'quantiles' && v.n > 0);
}

function replayView(report: Report) {
  const rp = replaySummary(report);
  return {
    identical: report.replay_proof.identical,
    status: rp.status,
    status_class: rp.status === 'identical' ? 'pass' : rp.status === 'divergent' ? 'fail' : 'watch',
    headline: rp.headline,
    divergent: rp.divergent,
    rollups: report.replay_proof.rollups.map((r, i) => ({
      replay: i + 1,
      order_seed: report.replay_proof.order_seeds[i] ?? '',
      rollup: r,
    })),
  };
}

function artifactRows(report: Report) {
  const a = report.artifacts;
  return [
    { name: 'fixture', id: `${a.artifact_id}@${a.version} (${a.fixture})`, sha256: '' },
    { name: 'corpus_id', id: a.corpus_id, sha256: a.corpus_sha256 },
    { name: 'query_set_id', id: a.query_set_id, sha256: a.query_set_sha256 },
    { name: 'config_id', id: a.config_id, sha256: a.config_sha256 },
  ];
}

/** Render the self-contained HTML report. Example: writeFileSync('report.html', renderHtml(report)) */
export function renderHtml(report: Report, opts: HtmlOptions = {}): string {
  const page = template('run', 'report');
  const view = htmlView(report, opts.history);
  const dataJson = jsonForScript(view.data);
  if (opts.frame) {
    return page({ ...view, csp: FRAMED_PAGE_CSP, dataJson, chartJs: '', clientJs: '', frame: opts.frame });
  }
  const chart = chartJs(opts.chartJsPath);
  const client = clientScript('run', 'report-client.js');
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(chart)} ${cspHash(client)}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return page({ ...view, csp, dataJson, chartJs: chart, clientJs: client, frame: null });
}
