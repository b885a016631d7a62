/**
 * The history a run report draws its trend charts from: the suite's runs up to and including one
 * run, never the ones after it, so re-rendering an old run shows the history as it stood then (and a
 * run finishing while another suite writes to the same store is not charted against newer runs).
 */
import { ALARM_WINDOW } from '../src/core/defaults.js';
import type { RunStore } from '../src/store/types.js';
import type { HistoryView, Report, RunRow } from '../src/documents/index.js';
import { asReport, buildHistory, comparedRunOf, readComparedReport, type RunWithMetrics } from './trends.js';

/**
 * The runs a report's trend charts show by default: the run and the ones before it. The alarm's own
 * window, so the report's alarm is the one `rgate history` and the dashboard show.
 */
export const WINDOW = ALARM_WINDOW;

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
  const window = store.listRuns({ suite: row.suite, from: runId, limit: opts.limit ?? WINDOW });
  if (window.length === 0) return undefined;
  // `report`: the run's own report, which the caller holds (checked) and the store keeps; read
  // and checked again otherwise
  const report = opts.report ?? asReport(store.getReport(runId));
  const compared = comparedRunOf(window);
  // a damaged older row costs the run's report only the paired test (readHistoryAhead cannot know
  // before the run which run it will be compared with), and the report says so
  const read =
    compared !== undefined ? readComparedReport(() => store.getReport(compared), compared) : undefined;
  const baseline = store.getBaseline(row.suite)?.run_id;
  const baselineReport =
    baseline !== undefined ? readComparedReport(() => store.getReport(baseline), baseline).report : undefined;
  return historyOfWindow(row.suite, withMetrics(store, window), report, read, baselineReport);
}

/**
 * Read now what historyUpToRun will read once a run of `suite` has finished (the suite's rows and the
 * measures of its window), so a stored run the store refuses (a hand edit, another rgate version)
 * stops the run before its first request, not after its last, and a merge before it stores its run.
 * `resumed`: the run taken up again (or, for a merge, the stored run of the same shards).
 */
export function readHistoryAhead(store: RunStore, suite: string, resumed?: string): void {
  // a new run is not stored yet: its window is itself and the newest WINDOW - 1 runs
  const window = store.listRuns(
    resumed === undefined ? { suite, limit: WINDOW - 1 } : { suite, from: resumed, limit: WINDOW },
  );
  withMetrics(store, window);
}

function withMetrics(store: RunStore, window: readonly RunRow[]): RunWithMetrics[] {
  return window.map((r) => ({
    row: r,
    metrics: r.status === 'complete' ? store.getMetrics(r.run_id) : [],
  }));
}

/**
 * The trends of that window; gate metrics are those of the run's own report (read back), and the
 * paired alarm reads the report of the run it is compared with. Pure.
 */
export function historyOfWindow(
  suite: string,
  runs: readonly RunWithMetrics[],
  report: Report | undefined,
  compared?: { report: Report | undefined; unavailable?: string },
  baseline?: Report,
): HistoryView {
  const gateRules = report?.gate.rules
    .filter((r) => r.metric !== 'query_count')
    .map((r) => ({ metric: r.metric, op: r.op }));
  return buildHistory(suite, runs, {
    ...(gateRules ? { gateRules } : {}),
    reports: {
      newest: report,
      compared: compared?.report,
      ...(compared?.unavailable !== undefined ? { unavailable: compared.unavailable } : {}),
      baseline,
    },
  });
}
