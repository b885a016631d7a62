/**
 * Any stored runs side by side (the dashboard's compare page, issue 35): two or more runs of one
 * suite on one snapshot, compared as `rgate compare` compares its variants (history/compare.ts
 * `analyzeCompare`: per-measure figures, paired tests with Holm's correction, winners, top-1 flips
 * per pair), the oldest run the reference (as `rgate diff` reads a before b), whatever the order
 * the runs are named in. Runs of different suites or snapshots are
 * refused with what differs: their queries or judgments are not the same, so no paired test means
 * anything.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { STATS_DEFAULTS, SUITE_DEFAULTS } from '../src/core/defaults.js';
import { RgateError } from '../src/core/errors.js';
import type { Report, RunRow, RunsComparePageView } from '../src/documents/index.js';
import { frozenConfigId } from '../src/snapshot/index.js';
import type { AsyncRunStore } from '../src/store/async-store.js';
import { analyzeCompare } from './compare.js';
import { dashboardRun, requireRun, storedReportOf } from './dashboard-views.js';

/** more than this many runs side by side is no longer readable (and Holm's family grows with the square) */
export const MAX_COMPARED_RUNS = 8;

/** Why two runs cannot be compared, or undefined when they can. */
export function notComparable(ref: Report, other: Report): string | undefined {
  return rowsNotComparable(
    { run_id: ref.environment.run_id, suite: ref.suite, artifacts: ref.artifacts },
    { run_id: other.environment.run_id, suite: other.suite, artifacts: other.artifacts },
  );
}

/** notComparable of two stored rows, before their reports are read (a base run is chosen so). */
export function rowsNotComparable(
  ref: Pick<RunRow, 'run_id' | 'suite' | 'artifacts'>,
  other: Pick<RunRow, 'run_id' | 'suite' | 'artifacts'>,
): string | undefined {
  const [a, b] = [ref.artifacts, other.artifacts];
  const runs = `run ${other.run_id} and the reference ${ref.run_id}`;
  if (other.suite !== ref.suite)
    return `${runs} are runs of different suites (${other.suite}, ${ref.suite}): their queries are not the same`;
  if (a.query_set_sha256 !== b.query_set_sha256)
    return `${runs} ran different query sets (${b.query_set_id}, ${a.query_set_id}): queries or judgments differ`;
  if (a.corpus_sha256 !== b.corpus_sha256)
    return `${runs} ran on different corpora (${b.corpus_id}, ${a.corpus_id})`;
  if (frozenConfigId(a.config_id) !== frozenConfigId(b.config_id))
    return `${runs} ran different frozen configs (${b.config_id}, ${a.config_id}); compare variants of one config with rgate compare`;
  return undefined;
}

/** The compare page of `runIds` (the oldest is the reference). Seeded: the same runs give the same page. */
export async function runsCompareView(
  store: AsyncRunStore,
  slug: string,
  runIds: readonly string[],
): Promise<RunsComparePageView> {
  if (runIds.length < 2 || runIds.length > MAX_COMPARED_RUNS)
    throw new RgateError(
      'usage',
      `compare ${runIds.length} run${runIds.length === 1 ? '' : 's'}: name from 2 to ${MAX_COMPARED_RUNS}`,
      'tick two or more runs in the runs list, or name them: ?run=<id>&run=<id>',
    );
  const repeated = runIds.find((id, i) => runIds.indexOf(id) !== i);
  if (repeated !== undefined) throw new RgateError('usage', `run ${repeated} is named twice`);
  const rows: RunRow[] = [];
  for (const id of runIds) rows.push(await requireRun(store, slug, id));
  // oldest first: a total order (start time, then run id)
  rows.sort((a, b) => compareCodeUnits(a.started_at, b.started_at) || compareCodeUnits(a.run_id, b.run_id));
  return compareRowsView(store, slug, rows);
}

/** The compare page of `rows` in the order given, the first the reference (a branch's base run). */
export async function compareRowsView(
  store: AsyncRunStore,
  slug: string,
  rows: readonly RunRow[],
): Promise<RunsComparePageView> {
  const unfinished = rows.find((r) => r.status !== 'complete');
  if (unfinished)
    throw new RgateError(
      'usage',
      `run ${unfinished.run_id} is ${unfinished.status}: its figures count only what it observed, so no paired test with it means anything`,
      'compare complete runs',
    );
  const reports: Report[] = [];
  for (const row of rows) reports.push(await storedReportOf(store, slug, row, 'nothing to compare'));
  const ref = reports[0]!;
  for (const r of reports.slice(1)) {
    const why = notComparable(ref, r);
    if (why) throw new RgateError('usage', why, 'compare runs of one suite on one snapshot');
  }
  const finished = rows.map((r) => r.finished_at ?? r.started_at).sort();
  const session = analyzeCompare({
    suite: ref.suite,
    kind: 'variants',
    variants: reports.map((report, i) => ({
      spec: { label: labelOf(rows[i]!), overrides: {} },
      report,
    })),
    settings: {
      seed: SUITE_DEFAULTS.seed,
      alpha: STATS_DEFAULTS.alpha,
      resamples: STATS_DEFAULTS.resamples,
      permutations: STATS_DEFAULTS.permutations,
    },
    environment: {
      session_id: rows.map((r) => r.run_id).join(' vs '),
      created_at: finished[finished.length - 1]!,
    },
  });
  return { project: slug, runs: rows.map(dashboardRun), session };
}

/** A run as a variant: its id, and the commit and branch it was made from when the upload named them. */
function labelOf(row: RunRow): string {
  const git = dashboardRun(row);
  const from = [git.branch, git.commit?.slice(0, 12)].filter(Boolean).join(' @ ');
  return from ? `${row.run_id} (${from})` : row.run_id;
}
