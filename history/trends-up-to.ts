/**
 * The history a run report draws its trend charts from: the suite's runs up to and including one
 * run, never the ones after it, so re-rendering an old run shows the history as it stood then (and a
 * run finishing while another suite writes to the same store is not charted against newer runs).
 */
import type { RunStore } from '../src/store/types.js';
import type { HistoryView, Report, RunRow } from '../src/documents/index.js';
import { asReport, buildHistory, type RunWithMetrics } from './trends.js';

/** The runs a report's trend charts show by default: the run and the ones before it. */
const WINDOW = 20;

/**
 * The trend window ending at `runId` (its newest `limit` runs of the same suite), or undefined when
 * the store does not know the run. Gate metrics are those of that run's own stored report.
 * Example: renderHtml(report, { history: historyUpToRun(store, report.environment.run_id) })
 */
export function historyUpToRun(
  store: RunStore,
  runId: string,
  opts: { limit?: number; report?: Report } = {},
): HistoryView | undefined {
  const row = store.getRun(runId);
  if (!row) return undefined;
  const window = upToWindow(store.listRuns({ suite: row.suite }), runId, opts.limit);
  if (!window) return undefined;
  // `report`: the run's own report, which the caller holds (checked) and the store keeps; read
  // and checked again otherwise
  const report = opts.report ?? asReport(store.getReport(runId));
  return historyOfWindow(row.suite, withMetrics(store, window), report);
}

/**
 * Read now what historyUpToRun will read once a run of `suite` has finished (the suite's rows and the
 * measures of its window), so a stored run the store refuses (a hand edit, another rgate version)
 * stops the run before its first request, not after its last, and a merge before it stores its run.
 * `resumed`: the run taken up again (or, for a merge, the stored run of the same shards).
 */
export function readHistoryAhead(store: RunStore, suite: string, resumed?: string): void {
  const rows = store.listRuns({ suite });
  // a new run is not stored yet: its window is itself and the newest WINDOW - 1 runs
  const window = resumed === undefined ? rows.slice(0, WINDOW - 1) : (upToWindow(rows, resumed) ?? []);
  withMetrics(store, window);
}

function withMetrics(store: RunStore, window: readonly RunRow[]): RunWithMetrics[] {
  return window.map((r) => ({
    row: r,
    metrics: r.status === 'complete' ? store.getMetrics(r.run_id) : [],
  }));
}

/**
 * The rows of the window ending at `runId`: listRuns is newest first with a total order (started_at
 * desc, run_id desc), so everything from this run's position on is this run and the runs before it.
 */
export function upToWindow(
  suiteRowsNewestFirst: readonly RunRow[],
  runId: string,
  limit = WINDOW,
): RunRow[] | undefined {
  const at = suiteRowsNewestFirst.findIndex((r) => r.run_id === runId);
  return at < 0 ? undefined : suiteRowsNewestFirst.slice(at, at + limit);
}

/** The trends of that window; gate metrics are those of the run's own report (read back). Pure. */
export function historyOfWindow(
  suite: string,
  runs: readonly RunWithMetrics[],
  report: Report | undefined,
): HistoryView {
  const gateRules = report?.gate.rules
    .filter((r) => r.metric !== 'query_count')
    .map((r) => ({ metric: r.metric, op: r.op }));
  return buildHistory(suite, runs, gateRules ? { gateRules } : {});
}
