/**
 * The history a run report draws its trend charts from: the suite's runs up to and including one
 * run, never the ones after it, so re-rendering an old run shows the history as it stood then (and a
 * run finishing while another suite writes to the same store is not charted against newer runs).
 */
import type { RunStore } from '../src/store/types.js';
import type { HistoryView } from '../src/documents/index.js';
import { asReport, buildHistory } from './trends.js';

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
  // listRuns is newest first with a total order (started_at desc, run_id desc): everything from
  // this run's position on is this run and the runs before it
  const all = store.listRuns({ suite: row.suite });
  const at = all.findIndex((r) => r.run_id === runId);
  if (at < 0) return undefined;
  const window = all.slice(at, at + (opts.limit ?? 20));
  const runs = window.map((r) => ({
    row: r,
    metrics: r.status === 'complete' ? store.getMetrics(r.run_id) : [],
  }));
  const report = asReport(store.getReport(runId));
  const gateRules = report?.gate.rules
    .filter((r) => r.metric !== 'query_count')
    .map((r) => ({ metric: r.metric, op: r.op }));
  return buildHistory(row.suite, runs, gateRules ? { gateRules } : {});
}
