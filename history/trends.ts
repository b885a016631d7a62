/**
 * Run history: per-metric trends over a suite's stored runs, with a regression alarm for nightly CI.
 * Pure over what the run store returns; the CLI (`rgate history`) renders the result.
 * Baselines live in history-baseline.ts, run-to-run diffs in history-diff.ts, snapshot keys in snapshot.ts.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { ALARM_WINDOW } from '../src/core/defaults.js';
import { RgateError } from '../src/core/errors.js';
import {
  REPORT_SCHEMA_VERSION,
  type Better,
  type HistoryRun,
  type HistoryView,
  type MeasureValue,
  type MetricEntry,
  type MetricTrend,
  type Report,
  type RuleStatus,
  type RunRow,
  type TrendPoint,
  type Verdict,
} from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import { upgradeReport } from '../harness/failure-reasons.js';
import { isValidReport, notApplicable } from '../gates/index.js';
import { pairedAlarm, pairedAlarmTests, type PairedAlarms } from './paired-alarm.js';
import { snapshotChange, snapshotKey } from './snapshot.js';

/** Metrics where a smaller number is the better one (independent of any gate rule). */
const LOWER_IS_BETTER = new Set(['error_rate', 'requests_warned', 'sensitive_leak_rate', 'latency_ms']);

/** Which way a metric improves: as its gate rule states it (a max rule: lower), else by what it counts. */
export function betterOf(metric: string, op: 'min' | 'max' | undefined): Better {
  return op === 'max' || (op === undefined && LOWER_IS_BETTER.has(metric)) ? 'lower' : 'higher';
}

const SPARK = '▁▂▃▄▅▆▇█';

/** One unicode block per value between the series' min and max; a gap for a missing value. */
export function sparkline(values: readonly (number | null)[]): string {
  const xs = values.filter((v): v is number => v !== null);
  if (xs.length === 0) return values.map(() => ' ').join('');
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return values
    .map((v) => {
      if (v === null) return ' ';
      if (hi === lo) return SPARK[3]!;
      const i = Math.round(((v - lo) / (hi - lo)) * (SPARK.length - 1));
      return SPARK[Math.max(0, Math.min(SPARK.length - 1, i))]!;
    })
    .join('');
}

/** The number a trend plots for a measure: rate, mean, or p95. */
export function headline(v: MeasureValue): number | null {
  return v.kind === 'rate' ? v.rate : v.kind === 'mean' ? v.mean : v.p95;
}

function interval(v: MeasureValue): [number, number] | null {
  return v.kind === 'rate' ? v.wilson95 : v.kind === 'mean' ? v.ci95 : null;
}

/** NONE (no gate) ranks with nothing: a suite gaining or losing its gate is no worsening */
const VERDICT_RANK: Record<Verdict, number> = { PASS: 0, WATCH: 1, FAIL: 2, NONE: -1 };

export interface RunWithMetrics {
  row: RunRow;
  metrics: MetricEntry[];
}

export interface HistoryOptions {
  /** only this metric (default: every metric measured in the window) */
  metric?: string;
  /** gate rule metrics of the latest run and the direction each rule states */
  gateRules?: { metric: string; op: 'min' | 'max'; status?: RuleStatus }[];
  /** reset notes of the fixture's frozen versions (freeze.json history), by version */
  resetNotes?: Readonly<Record<string, string>>;
  /** measures of the newest run that do not apply to it: no trend (unless asked for by --metric) */
  notApplicable?: readonly { id: string; why: string }[];
  /**
   * the stored reports of the newest complete run and of the run it is compared with
   * (comparedRunOf): the paired alarm reads their per-query values. Reports of other runs are ignored.
   */
  reports?: {
    newest?: Report | undefined;
    compared?: Report | undefined;
    unavailable?: string;
    /** the suite's baseline run's stored report: tested too when on the newest's snapshot and config */
    baseline?: Report | undefined;
  };
  /** how many runs the caller asked the store for (`--limit`); fewer than ALARM_WINDOW narrows the alarm */
  readLimit?: number;
}

/**
 * The complete runs oldest -> newest, and the index of the newest earlier one on the newest's
 * snapshot and effective config inside the alarm window (-1: none): what the newest run is compared with.
 */
function alarmComparison(runsNewestFirst: readonly RunWithMetrics[]): {
  complete: RunWithMetrics[];
  alarmFrom: number;
  comparedAt: number;
} {
  const complete = runsNewestFirst.filter((r) => r.row.status === 'complete').reverse();
  const newestKey = complete.length ? snapshotKey(complete[complete.length - 1]!.row.artifacts) : '';
  // the complete runs inside the alarm window are the newest ones: complete[alarmFrom..]
  const inAlarmWindow = new Set(runsNewestFirst.slice(0, ALARM_WINDOW).map((r) => r.row.run_id));
  const alarmFrom = complete.length - complete.filter((r) => inAlarmWindow.has(r.row.run_id)).length;
  let comparedAt = -1;
  for (let i = complete.length - 2; i >= alarmFrom && comparedAt < 0; i--)
    if (snapshotKey(complete[i]!.row.artifacts) === newestKey) comparedAt = i;
  return { complete, alarmFrom, comparedAt };
}

/**
 * The run the newest complete run's metrics are compared with (rows newest first, as listRuns
 * returns them), so a caller reads that run's report before building the history; undefined when none.
 */
export function comparedRunOf(rowsNewestFirst: readonly RunRow[]): string | undefined {
  const { complete, comparedAt } = alarmComparison(rowsNewestFirst.map((row) => ({ row, metrics: [] })));
  return comparedAt >= 0 ? complete[comparedAt]!.row.run_id : undefined;
}

/**
 * Trends from complete runs (given newest first, as listRuns returns them). The alarm looks at the
 * newest run only: a gate metric whose newest value falls outside the 95% interval of the newest
 * earlier run on the same snapshot and effective config (`compared_with`) in the bad direction, or a
 * verdict worse than the previous run's. Runs in between on another snapshot or config (a `--set`
 * experiment) are passed over, so they cannot hide the next night's regression; with no such run
 * the metric alarm stays silent and the view says there was nothing to compare with.
 */
export function buildHistory(
  suite: string,
  runsNewestFirst: readonly RunWithMetrics[],
  opts: HistoryOptions = {},
): HistoryView {
  const { complete, alarmFrom, comparedAt } = alarmComparison(runsNewestFirst);
  const skipped = runsNewestFirst
    .filter((r) => r.row.status !== 'complete')
    .reverse()
    .map((r) => toHistoryRun(r.row));
  const gateDir = new Map<string, 'min' | 'max'>();
  for (const r of opts.gateRules ?? []) if (!gateDir.has(r.metric)) gateDir.set(r.metric, r.op);
  const hidden = new Set((opts.notApplicable ?? []).map((h) => h.id));
  const metricIds = trendMetricIds(suite, complete, hidden, opts);

  const comparedWith = comparedAt >= 0 ? complete[comparedAt]!.row.run_id : undefined;
  // the runs passed over, named in the alarm so the reader sees why the comparison skips them
  const between = comparedAt >= 0 ? complete.length - 2 - comparedAt : 0;

  // every gate metric of the newest run, whatever --metric shows: the Holm family, and so each
  // alarm, must not depend on which trend is printed
  const paired = pairedOf(
    [...gateDir.keys()].filter((id) => !hidden.has(id)),
    comparedWith,
    complete[complete.length - 1]?.row,
    opts.reports,
  );

  const unavailable =
    comparedWith !== undefined
      ? pairedUnavailable(comparedWith, complete[complete.length - 1]!.row.run_id, opts.reports)
      : undefined;

  const lookup = runLookup(complete);
  const trends = metricIds.map((id) =>
    metricTrend(id, complete, { gateDir, gateRules: opts.gateRules, comparedAt, between, paired, lookup }),
  );
  const alarms = trends.flatMap((t) => (t.alarm ? [t.alarm] : []));
  const last = complete[complete.length - 1];
  const prev = complete.length - 2 >= alarmFrom ? complete[complete.length - 2] : undefined;
  const worse = verdictAlarm(prev, last);
  if (worse) alarms.unshift(worse);
  const notApplicable = (opts.notApplicable ?? []).filter((h) => h.id !== opts.metric).map((h) => ({ ...h }));
  return {
    suite,
    runs: historyRuns(complete, opts.resetNotes),
    skipped,
    trends,
    alarms,
    not_applicable: notApplicable,
    ...(comparedWith !== undefined ? { compared_with: comparedWith } : {}),
    ...(paired ? { paired } : {}),
    ...(unavailable !== undefined ? { paired_unavailable: unavailable } : {}),
    alarm_window: Math.min(ALARM_WINDOW, opts.readLimit ?? ALARM_WINDOW),
    ...(prev && last ? { verdict_compared_with: prev.row.run_id } : {}),
  };
}

/**
 * The metrics to trend: --metric alone (an error when no complete run measured it), else every
 * measured one not hidden; gate metrics first (in rule order), then the rest by id: a total order.
 */
function trendMetricIds(
  suite: string,
  complete: readonly RunWithMetrics[],
  hidden: ReadonlySet<string>,
  opts: HistoryOptions,
): string[] {
  const ids = new Set<string>();
  for (const r of complete) for (const m of r.metrics) ids.add(m.id);
  if (opts.metric !== undefined && !ids.has(opts.metric)) {
    throw new RgateError(
      'usage',
      `--metric ${opts.metric}: not measured in the ${complete.length} complete run(s) of suite "${suite}"`,
      ids.size
        ? `measured: ${[...ids].sort(compareCodeUnits).join(', ')}`
        : 'run the suite first: rgate run ' + suite,
    );
  }
  return (opts.metric !== undefined ? [opts.metric] : [...ids].filter((id) => !hidden.has(id))).sort(
    (a, b) => {
      const ga = gateOrder(opts.gateRules, a);
      const gb = gateOrder(opts.gateRules, b);
      return ga - gb || compareCodeUnits(a, b);
    },
  );
}

/** What one metric's trend is judged by: the gate's rules and the run the newest is compared with. */
interface TrendContext {
  gateDir: ReadonlyMap<string, 'min' | 'max'>;
  gateRules: HistoryOptions['gateRules'];
  /** index in the complete runs of the run compared with, -1 for none */
  comparedAt: number;
  /** how many runs between it and the newest were passed over */
  between: number;
  paired: ReturnType<typeof pairedOf>;
  lookup: RunLookup;
}

/**
 * Per complete run, once for every metric's trend: its measures by id, and whether its snapshot
 * differs from the run before's (a trend of 1,000 runs x 12 metrics no longer searches each run's
 * measures and joins its snapshot key once per metric).
 */
interface RunLookup {
  byId: ReadonlyMap<string, MetricEntry>[];
  snapshotChanged: boolean[];
}

function runLookup(complete: readonly RunWithMetrics[]): RunLookup {
  const keys = complete.map((r) => snapshotKey(r.row.artifacts));
  return {
    byId: complete.map((r) => {
      // the first entry of an id wins, as Array.find would take it
      const m = new Map<string, MetricEntry>();
      for (const e of r.metrics) if (!m.has(e.id)) m.set(e.id, e);
      return m;
    }),
    snapshotChanged: keys.map((k, i) => i > 0 && k !== keys[i - 1]),
  };
}

/** One metric over the complete runs, oldest first, with its latest change and its alarm. */
function metricTrend(id: string, complete: readonly RunWithMetrics[], t: TrendContext): MetricTrend {
  const { kind, points } = trendPoints(id, complete, t.lookup);
  const better = betterOf(id, t.gateDir.get(id));
  const measured = points.filter((p) => p.value !== null);
  const last = points[points.length - 1];
  const prev = points[points.length - 2];
  const comparable = t.comparedAt >= 0 ? points[t.comparedAt] : undefined;
  const delta = last && prev && last.value !== null && prev.value !== null ? last.value - prev.value : null;
  const trend: MetricTrend = {
    metric: id,
    kind,
    gate_metric: t.gateDir.has(id),
    rule_status: worstStatus(t.gateRules, id),
    better,
    points,
    sparkline: sparkline(points.map((p) => p.value)),
    latest: last?.value ?? null,
    delta: measured.length >= 2 ? delta : null,
    alarm:
      t.gateDir.has(id) && last && comparable ? metricAlarm(id, comparable, last, better, t.between) : null,
  };
  // the interval alarm says it already; else a paired test can see what the interval cannot:
  // against the run compared with, else against the suite's baseline (a drop spread over several
  // nights, or a CI retry of the night that dropped, ties with the run before but not with it)
  const paired = t.paired;
  for (const test of paired?.tests.filter((x) => x.metric === id) ?? []) {
    if (trend.alarm !== null) break;
    const from = test.a === paired!.baseline ? " (the suite's baseline)" : skippedNote(t.between);
    trend.alarm = pairedAlarm(test, paired!.tests, better, from);
  }
  return trend;
}

/** A metric's value in each complete run, and whether the run's snapshot changed from the one before. */
function trendPoints(
  id: string,
  complete: readonly RunWithMetrics[],
  lookup: RunLookup,
): { kind: MeasureValue['kind']; points: TrendPoint[] } {
  let kind: MeasureValue['kind'] = 'rate';
  const points: TrendPoint[] = [];
  for (let i = 0; i < complete.length; i++) {
    const row = complete[i]!.row;
    const v = lookup.byId[i]!.get(id)?.value;
    const changed = lookup.snapshotChanged[i]!;
    if (v) kind = v.kind;
    // 12,000 points on a trend of 1,000 runs: each one object literal, keys in one order (a spread
    // of a conditional object cost a third of the history's time); the JSON is the same
    points.push(
      v?.kind === 'rate'
        ? {
            run_id: row.run_id,
            started_at: row.started_at,
            value: v.rate,
            numerator: v.numerator,
            denominator: v.denominator,
            interval: v.wilson95,
            verdict: row.verdict,
            snapshot_changed: changed,
          }
        : {
            run_id: row.run_id,
            started_at: row.started_at,
            value: v ? headline(v) : null,
            interval: v ? interval(v) : null,
            verdict: row.verdict,
            snapshot_changed: changed,
          },
    );
  }
  return { kind, points };
}

/** "verdict worsened: ..." when the newest run's verdict is worse than the run before's; else null. */
function verdictAlarm(prev: RunWithMetrics | undefined, last: RunWithMetrics | undefined): string | null {
  if (
    last?.row.verdict &&
    prev?.row.verdict &&
    prev.row.verdict !== 'NONE' &&
    VERDICT_RANK[last.row.verdict] > VERDICT_RANK[prev.row.verdict]
  )
    return `verdict worsened: ${prev.row.verdict} (${prev.row.run_id}) -> ${last.row.verdict} (${last.row.run_id})`;
  return null;
}

/** The complete runs, each with what changed in its inputs and whether it shares the newest's snapshot. */
function historyRuns(
  complete: readonly RunWithMetrics[],
  resetNotes: HistoryOptions['resetNotes'],
): HistoryView['runs'] {
  const newestKey = complete.length ? snapshotKey(complete[complete.length - 1]!.row.artifacts) : '';
  return complete.map((r, i) => {
    const run = toHistoryRun(r.row);
    const change = i === 0 ? '' : snapshotChange(complete[i - 1]!.row.artifacts, r.row.artifacts, resetNotes);
    const same = { same_as_newest: snapshotKey(r.row.artifacts) === newestKey };
    return change ? { ...run, change, ...same } : { ...run, ...same };
  });
}

/**
 * The paired tests of the gate metrics: the newest run against the run compared with, when both
 * reports are at hand (and are those runs'), and against the suite's baseline when that is another,
 * earlier run on the same snapshot and effective config. Undefined when neither can be tested.
 */
function pairedOf(
  gateMetrics: readonly string[],
  comparedWith: string | undefined,
  newest: RunRow | undefined,
  reports: HistoryOptions['reports'],
): PairedAlarms | undefined {
  const b = reports?.newest;
  if (!newest || !b || b.environment.run_id !== newest.run_id) return undefined;
  const a = reports?.compared;
  const against = comparedWith !== undefined && a?.environment.run_id === comparedWith ? [a] : [];
  const base = reports?.baseline;
  const baselineOk =
    base !== undefined &&
    base.environment.run_id !== newest.run_id &&
    base.environment.run_id !== comparedWith &&
    // a baseline set after this run is not what it was held to (a report re-rendered later)
    compareCodeUnits(base.environment.started_at, b.environment.started_at) < 0 &&
    snapshotKey(base.artifacts) === snapshotKey(newest.artifacts);
  if (baselineOk) against.push(base);
  if (against.length === 0) return undefined;
  const out = pairedAlarmTests(gateMetrics, against, b);
  return baselineOk ? { ...out, baseline: base.environment.run_id } : out;
}

/**
 * Why the newest run could not be tested against the run it is compared with (undefined: it could):
 * the reason the caller read, else which report is missing.
 */
function pairedUnavailable(
  comparedWith: string,
  newestId: string,
  reports: HistoryOptions['reports'],
): string | undefined {
  const a = reports?.compared?.environment.run_id === comparedWith;
  const b = reports?.newest?.environment.run_id === newestId;
  if (a && b) return undefined;
  if (reports?.unavailable !== undefined) return reports.unavailable;
  return `the stored report of ${a ? newestId : comparedWith} is missing or no longer valid`;
}

/**
 * A stored report for the paired test, or why it cannot be had: a run stored without one, or one the
 * store cannot parse (a damaged row costs the paired test, not the history; the reason is shown).
 */
export function readComparedReport(
  read: () => unknown,
  runId: string,
): { report: Report | undefined; unavailable?: string } {
  try {
    const report = asReport(read());
    return report
      ? { report }
      : { report: undefined, unavailable: `the stored report of ${runId} is missing or no longer valid` };
  } catch (e) {
    if (e instanceof RgateError)
      return {
        report: undefined,
        unavailable: `the stored report of ${runId} cannot be read (${e.message})`,
      };
    throw e;
  }
}

const STATUS_RANK: Record<RuleStatus, number> = { pass: 0, watch: 1, fail: 2 };

/** The worst status among the latest run's rules naming `id`; null when none does or none says. */
function worstStatus(rules: HistoryOptions['gateRules'], id: string): RuleStatus | null {
  let worst: RuleStatus | null = null;
  for (const r of rules ?? [])
    if (r.metric === id && r.status && (worst === null || STATUS_RANK[r.status] > STATUS_RANK[worst]))
      worst = r.status;
  return worst;
}

function gateOrder(rules: HistoryOptions['gateRules'], id: string): number {
  const i = (rules ?? []).findIndex((r) => r.metric === id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

/** `prev`: the newest earlier run on the same snapshot and config; `between`: runs passed over. */
function metricAlarm(
  id: string,
  prev: TrendPoint,
  cur: TrendPoint,
  better: Better,
  between: number,
): string | null {
  const was = `was ${fmt(prev.value ?? 0)} in ${prev.run_id}${skippedNote(between)}`;
  if (cur.value === null) return prev.value === null ? null : `${id}: not measured in ${cur.run_id} (${was})`;
  if (prev.value === null || !prev.interval) return null;
  const [lo, hi] = prev.interval;
  const of = between === 0 ? "the previous run's" : `${prev.run_id}'s`;
  if (better === 'higher' && cur.value < lo) {
    return `${id} dropped to ${fmt(cur.value)} in ${cur.run_id}, below ${of} 95% interval [${fmt(lo)}, ${fmt(hi)}] (${was})`;
  }
  if (better === 'lower' && cur.value > hi) {
    return `${id} rose to ${fmt(cur.value)} in ${cur.run_id}, above ${of} 95% interval [${fmt(lo)}, ${fmt(hi)}] (${was})`;
  }
  return null;
}

function skippedNote(between: number): string {
  return between === 0
    ? ''
    : `, the newest run on the same snapshot and config; ${between} run(s) in between used another`;
}

function fmt(x: number): string {
  const s = x.toFixed(4);
  return s.replace(/\.?0+$/, '') || '0';
}

function toHistoryRun(row: RunRow): HistoryRun {
  const a = row.artifacts;
  return {
    run_id: row.run_id,
    started_at: row.started_at,
    status: row.status,
    gate_id: row.gate_id,
    verdict: row.verdict,
    version: a && typeof a.version === 'string' ? a.version : null,
  };
}

/** Read the window of a suite's history from a store (newest `limit` runs) and build its trends. */
export function historyFromStore(
  store: RunStore,
  suite: string,
  opts: { metric?: string; limit?: number; resetNotes?: Readonly<Record<string, string>> } = {},
): HistoryView {
  const rows = store.listRuns({ suite, limit: opts.limit ?? 20 });
  if (rows.length === 0) {
    throw new RgateError(
      'usage',
      `no runs of suite "${suite}" in ${store.location}`,
      `run it first: rgate run ${suite}`,
    );
  }
  // the window's measures in one read, as the dashboard reads them (not a query per run)
  const complete = rows.filter((r) => r.status === 'complete').map((r) => r.run_id);
  const metrics = store.getMetricsOf(complete);
  const byRun = new Map(complete.map((id, i) => [id, metrics[i]!]));
  const runs = rows.map((row) => ({ row, metrics: byRun.get(row.run_id) ?? [] }));
  const latest = rows.find((r) => r.status === 'complete');
  const compared = comparedRunOf(rows);
  const baseline = store.getBaseline(suite)?.run_id;
  return historyFromRuns(suite, runs, latest ? store.getReport(latest.run_id) : undefined, {
    ...opts,
    ...(baseline !== undefined
      ? { baseline: readComparedReport(() => store.getReport(baseline), baseline).report }
      : {}),
    readLimit: opts.limit ?? ALARM_WINDOW,
    ...(compared !== undefined
      ? { compared: readComparedReport(() => store.getReport(compared), compared) }
      : {}),
  });
}

/**
 * The trends of a window already read from a store (newest first, metrics of complete runs only)
 * and the stored report of its newest complete run, whose gate names the gate metrics (and, for the
 * paired alarm, the report of the run it is compared with). Pure: the
 * synchronous CLI and the async server read the rows their own way and both end here.
 */
export function historyFromRuns(
  suite: string,
  runs: readonly RunWithMetrics[],
  newestReport: unknown,
  opts: {
    metric?: string;
    resetNotes?: Readonly<Record<string, string>>;
    /** how many runs were asked of the store (the window's limit) */
    readLimit?: number;
    /** the stored report of the suite's baseline run (tested too, when on the same snapshot and config) */
    baseline?: Report | undefined;
    /** the stored report of comparedRunOf(rows) (readComparedReport): the paired alarm compares the two per query */
    compared?: { report: Report | undefined; unavailable?: string };
  } = {},
): HistoryView {
  const report = asReport(newestReport);
  const gateRules = report?.gate.rules
    .filter((r) => r.metric !== 'query_count')
    .map((r) => ({ metric: r.metric, op: r.op, status: r.status }));
  const newest = runs.find((r) => r.row.status === 'complete');
  const notApplicableNow = newest
    ? notApplicable(newest.metrics, {
        ruled: new Set((report?.gate.rules ?? []).map((r) => r.metric)),
        // without its report (an older run) a selection step cannot be ruled out
        selectionStep: report ? (report.judging?.selection_step ?? false) : true,
      })
    : [];
  return buildHistory(suite, runs, {
    notApplicable: notApplicableNow,
    ...(opts.readLimit !== undefined ? { readLimit: opts.readLimit } : {}),
    reports: {
      newest: report,
      compared: opts.compared?.report,
      ...(opts.compared?.unavailable !== undefined ? { unavailable: opts.compared.unavailable } : {}),
      baseline: opts.baseline,
    },
    ...(opts.metric !== undefined ? { metric: opts.metric } : {}),
    ...(opts.resetNotes ? { resetNotes: opts.resetNotes } : {}),
    ...(gateRules ? { gateRules } : {}),
  });
}

/** The suites that have runs in a store, sorted. */
export function storedSuites(store: RunStore): string[] {
  return store.runFacets().suites;
}

/**
 * A stored report when it matches the report schema; undefined otherwise (older runs, interrupted
 * writes, a hand-edited row): the renderers behind history, diff, baseline, closeout and the
 * dashboard then read it as no report instead of failing on a missing field.
 */
export function asReport(value: unknown): Report | undefined {
  const r = value as Partial<Report> | null | undefined;
  if (!r || typeof r !== 'object' || r.schema_version !== REPORT_SCHEMA_VERSION) return undefined;
  return isValidReport(r) ? upgradeReport(r) : undefined;
}
