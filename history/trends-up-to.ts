/**
 * The history a run report draws its trend charts from: the suite's runs up to and including one
 * run, never the ones after it, so re-rendering an old run shows the history as it stood then (and a
 * run finishing while another suite writes to the same store is not charted against newer runs).
 */
import type { RunStore } from '../src/store/types.js';
import type { HistoryView, RunRow } from '../src/documents/index.js';
import { asReport, buildHistory, type RunWithMetrics } from './trends.js';

/**
 * The trend window ending at `runId` (its newest `limit` runs of the same suite), or undefined when
 * the store does not know the run. Gate metrics are those of that run's own stored report.
 * Example: renderHtml(report, { history: historyUpToRun(store, report.environment.run_id) })
 */
export function historyUpToRun(
  store: RunStore,
  runId: string,
  opts: { limit?: number } = {},
): HistoryView | undefined {
  const row = store.getRun(runId);
  if (!row) return undefined;
  const window = upToWindow(store.listRuns({ suite: row.suite }), runId, opts.limit);
  if (!window) return undefined;
  const runs = window.map((r) => ({
    row: r,
    metrics: r.status === 'complete' ? store.getMetrics(r.run_id) : [],
  }));
  return historyOfWindow(row.suite, runs, store.getReport(runId));
}

/**
 * The rows of the window ending at `runId`: listRuns is newest first with a total order (started_at
 * desc, run_id desc), so everything from this run's position on is this run and the runs before it.
 */
export function upToWindow(
  suiteRowsNewestFirst: readonly RunRow[],
  runId: string,
  limit = 20,
): RunRow[] | undefined {
  const at = suiteRowsNewestFirst.findIndex((r) => r.run_id === runId);
  return at < 0 ? undefined : suiteRowsNewestFirst.slice(at, at + limit);
}

/** The trends of that window; gate metrics are those of the run's own stored report. Pure. */
export function historyOfWindow(
  suite: string,
  runs: readonly RunWithMetrics[],
  runReport: unknown,
): HistoryView {
  const report = asReport(runReport);
  const gateRules = report?.gate.rules
    .filter((r) => r.metric !== 'query_count')
    .map((r) => ({ metric: r.metric, op: r.op }));
  return buildHistory(suite, runs, gateRules ? { gateRules } : {});
}
