/**
 * `rgate baseline set|show`: point a suite's baseline at a stored run, and show it.
 */
import { RgateError } from '../src/core/errors.js';
import type { BaselineInfo, RunRow } from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import { baselineRow } from '../harness/run-baseline.js';
import { notApplicable } from '../gates/index.js';
import { asReport } from './trends.js';

/** A suite's newest complete run (what baseline and closeout take by default), or a usage error. */
export function newestCompleteRun(store: RunStore, suite: string): RunRow {
  const [row] = store.listRuns({ suite, status: 'complete', limit: 1 });
  if (!row) {
    throw new RgateError(
      'usage',
      `suite "${suite}" has no complete run in ${store.location}`,
      `run it first: rgate run ${suite}`,
    );
  }
  return row;
}

/**
 * Point a suite's baseline at a run (default: its newest complete run). Only complete runs of the
 * same suite qualify: an interrupted run is missing observations, a failed one has no measures.
 */
export function setSuiteBaseline(store: RunStore, suite: string, runId?: string, note?: string): RunRow {
  let row: RunRow | undefined;
  if (runId === undefined) {
    row = newestCompleteRun(store, suite);
  } else {
    row = store.getRun(runId);
    if (!row)
      throw new RgateError(
        'usage',
        `no run ${runId} in ${store.location}`,
        `list runs: rgate history ${suite}`,
      );
    const refused = baselineRefusal(row, suite);
    if (refused) throw new RgateError('usage', refused.message, refused.hint);
  }
  store.setBaseline(suite, row.run_id, note);
  return row;
}

/**
 * Why a stored run cannot be a suite's baseline, or undefined when it can: only a complete run of
 * that suite qualifies (an interrupted run misses observations, a failed one has no measures), and
 * not a comparison's variant (not nightly history).
 * `rgate baseline set` and the server's baseline route both ask this.
 */
export function baselineRefusal(row: RunRow, suite: string): { message: string; hint: string } | undefined {
  if (row.suite !== suite) {
    return {
      message: `run ${row.run_id} belongs to suite "${row.suite}", not "${suite}"`,
      hint: `rgate baseline set ${row.suite} ${row.run_id}`,
    };
  }
  if (row.compare_session !== undefined) {
    return {
      message: `run ${row.run_id} is a variant of comparison ${row.compare_session}, not nightly history: it cannot be a baseline`,
      hint: `pick a run of rgate run: rgate history ${suite}`,
    };
  }
  if (row.status !== 'complete') {
    return {
      message: `run ${row.run_id} is ${row.status}, not complete: it cannot be a baseline`,
      hint: `pick a complete run: rgate history ${suite}`,
    };
  }
  return undefined;
}

/** What `rgate baseline show` prints. */
export function showBaseline(store: RunStore, suite: string): BaselineInfo {
  const found = baselineRow(store, suite);
  if (!found) {
    throw new RgateError(
      'usage',
      `suite "${suite}" has no baseline in ${store.location}`,
      `set one: rgate baseline set ${suite} [run-id] --note "..."`,
    );
  }
  const all = store.getMetrics(found.row.run_id);
  const report = asReport(store.getReport(found.row.run_id));
  const hidden = notApplicable(all, {
    ruled: new Set((report?.gate.rules ?? []).map((r) => r.metric)),
    // without its report (an older run) a selection step cannot be ruled out: keep those measures
    selectionStep: report ? (report.judging?.selection_step ?? false) : true,
  });
  const hiddenIds = new Set(hidden.map((h) => h.id));
  return {
    suite,
    run: found.row,
    note: found.note,
    metrics: all.filter((m) => !hiddenIds.has(m.id)),
    not_applicable: hidden,
  };
}
