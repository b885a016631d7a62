/**
 * The baseline a run's `vs_baseline` rules compare against, read from the run store before the run
 * replays anything, so a refused baseline loses no work.
 */
import { RgateError } from '../src/core/errors.js';
import type {
  ArtifactRefs,
  Freeze,
  GatePolicy,
  MetricEntry,
  PerQueryValues,
  Report,
  RunRow,
} from '../src/documents/index.js';
import { perQueryValues, semanticWinModesOf } from '../src/metrics/index.js';
import { checkSnapshotChange } from '../src/snapshot/snapshot-change.js';
import type { RunStore } from '../src/store/types.js';

/** What `runSuite({baseline})` takes, read from the store. */
export interface ResolvedBaseline {
  metrics: MetricEntry[];
  /** deterministic (no file paths): `history baseline <run-id>` */
  source: string;
  run_id: string;
  artifacts: ArtifactRefs;
  /** present when the fixture version changed since the baseline: the freeze history's note(s) */
  reset_note?: string;
  /** the note given to `rgate baseline set` */
  note?: string;
  /** the baseline report's per-query values (a baseline rule's detectable effect reads their differences) */
  per_query?: PerQueryValues;
}

/**
 * A baseline report's per-query values, or undefined when it keeps no queries (a report from before
 * per-query values were recorded, or not a report). Read loosely: the baseline only lends its values.
 */
export function baselinePerQuery(value: unknown): PerQueryValues | undefined {
  const r = value as Partial<Report> | null | undefined;
  if (!r || typeof r !== 'object' || !Array.isArray(r.queries) || !r.system) return undefined;
  const values = perQueryValues(r.queries, semanticWinModesOf({ system: r.system }));
  return Object.keys(values).length ? values : undefined;
}

/** The stored run a suite's baseline points at, checked to be usable. */
export function baselineRow(
  store: RunStore,
  suite: string,
): { row: RunRow; note: string | null } | undefined {
  const b = store.getBaseline(suite);
  if (!b) return undefined;
  const row = store.getRun(b.run_id);
  if (!row) {
    throw new RgateError(
      'input_invalid',
      `the baseline of suite "${suite}" is run ${b.run_id}, which is not in ${store.location}`,
      `set another: rgate baseline set ${suite} <run-id>`,
    );
  }
  return { row, note: b.note };
}

/**
 * The suite's stored baseline for `rgate run` and the closeout, or undefined when none is set.
 * Throws (exit 2) when the baseline's snapshot differs from `current` without reset notes.
 * Example: runSuite({..., baseline: resolveBaseline(store, 'context-load', suite.artifacts, suite.freeze)})
 */
export function resolveBaseline(
  store: RunStore,
  suite: string,
  current: ArtifactRefs,
  freeze: Pick<Freeze, 'history'>,
): ResolvedBaseline | undefined {
  const found = baselineRow(store, suite);
  if (!found) return undefined;
  const { row, note } = found;
  const artifacts = row.artifacts;
  const check = checkSnapshotChange(artifacts, current, freeze.history, `baseline run ${row.run_id}`);
  const perQuery = baselinePerQuery(store.getReport(row.run_id));
  return {
    metrics: store.getMetrics(row.run_id),
    ...(perQuery ? { per_query: perQuery } : {}),
    source: `history baseline ${row.run_id}`,
    run_id: row.run_id,
    artifacts,
    ...(check.same ? {} : { reset_note: check.reset_note }),
    ...(note ? { note } : {}),
  };
}

/**
 * What `rgate run` passes to runSuite: the suite's stored baseline, but only when the gate has a
 * `vs_baseline` rule (a gate that does not compare must not be refused over a stale baseline).
 * Example: runSuite({..., baseline: storedBaselineFor(store, name, policy, suite.artifacts, suite.freeze)})
 */
export function storedBaselineFor(
  store: RunStore,
  suite: string,
  policy: Pick<GatePolicy, 'rules'> | undefined,
  current: ArtifactRefs,
  freeze: Pick<Freeze, 'history'>,
): ResolvedBaseline | undefined {
  if (!policy?.rules.some((r) => r.vs_baseline)) return undefined;
  return resolveBaseline(store, suite, current, freeze);
}
