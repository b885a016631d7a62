/**
 * Baselines from the run store: which run a suite's `vs_baseline` rules compare against, and the
 * seed 000 binding: runs on different pinned snapshots are never compared unless the fixture's
 * freeze history carries a baseline reset note for every version step between them.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { RgateError } from '../src/core/errors.js';
import type { GatePolicy } from '../src/contracts/gate-policy.js';
import type { ArtifactRefs, MetricEntry } from '../src/core/report.js';
import type { Freeze, FreezeHistoryEntry } from '../src/snapshot/index.js';
import { compareVersions } from '../src/snapshot/index.js';
import type { RunRow, RunStore } from '../src/store/types.js';

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
}

export type SnapshotCheck = { same: true } | { same: false; reset_note: string; steps: FreezeHistoryEntry[] };

const ID_FIELDS = ['corpus_id', 'query_set_id', 'config_id'] as const;

/**
 * A run's config id without the `+overrides` marker: a tuning variant or `--set` run is still on
 * the frozen config file, and comparing configurations is the point of a baseline.
 */
export function frozenConfigId(id: string): string {
  return id.endsWith('+overrides') ? id.slice(0, -'+overrides'.length) : id;
}

function idsOf(a: ArtifactRefs): Record<(typeof ID_FIELDS)[number], string> {
  return { corpus_id: a.corpus_id, query_set_id: a.query_set_id, config_id: frozenConfigId(a.config_id) };
}

/**
 * May a run on `current` be compared with one on `baseline`? Same pinned ids: yes. Otherwise only
 * when both are versions of the same fixture artifact and every version step after the baseline's
 * up to the current one carries a reset note in freeze.json's history; the notes are returned so
 * the report can show them. Anything else throws RgateError('freeze_violation') naming both ids.
 */
export function checkSnapshotChange(
  baseline: ArtifactRefs,
  current: ArtifactRefs,
  history: readonly FreezeHistoryEntry[],
  label = 'baseline run',
): SnapshotCheck {
  const b = idsOf(baseline);
  const c = idsOf(current);
  const differing = ID_FIELDS.filter((f) => b[f] !== c[f]);
  if (differing.length === 0) return { same: true };
  const both = differing.map((f) => `${f} ${b[f]} (${label}) vs ${c[f]} (this run)`).join('; ');
  const refuse = (why: string, hint: string): never => {
    throw new RgateError(
      'freeze_violation',
      `refusing to compare runs on different snapshots: ${both}; ${why}`,
      hint,
    );
  };
  if (baseline.artifact_id !== current.artifact_id || baseline.fixture !== current.fixture) {
    refuse(
      `they are different fixture sets (${baseline.artifact_id} vs ${current.artifact_id})`,
      'set a baseline run of this fixture: rgate baseline set <suite> <run-id>',
    );
  }
  if (compareVersions(current.version, baseline.version) <= 0) {
    refuse(
      `the fixture version did not go up (${baseline.version} -> ${current.version})`,
      'a changed fixture needs a version bump with a reset note: rgate freeze <set> --version <v> --reset-note "..."',
    );
  }
  const steps = [...history]
    .filter(
      (h) =>
        compareVersions(h.version, baseline.version) > 0 && compareVersions(h.version, current.version) <= 0,
    )
    .sort((x, y) => compareVersions(x.version, y.version) || compareCodeUnits(x.frozen_on, y.frozen_on));
  if (!steps.some((h) => h.version === current.version)) {
    refuse(
      `freeze.json history has no entry for version ${current.version}`,
      're-freeze the set so its history records the version and its reset note',
    );
  }
  const missing = steps.filter((h) => !h.reset_note);
  if (missing.length) {
    refuse(
      `the fixture changed ${baseline.version} -> ${current.version} and freeze.json history has no baseline reset note for ${missing
        .map((h) => h.version)
        .join(', ')} (seed 000 "Fixture Freeze Binding")`,
      `bump the version with a note: rgate freeze <set> --version <next> --reset-note "why the baseline is reset", or set a baseline run on ${current.version}`,
    );
  }
  const reset_note =
    steps.length === 1
      ? `${steps[0]!.version}: ${steps[0]!.reset_note}`
      : steps.map((h) => `${h.version} (${h.frozen_on}): ${h.reset_note}`).join('; ');
  return { same: false, reset_note, steps };
}

/** The stored run a suite's baseline points at, checked to be usable. */
function baselineRow(store: RunStore, suite: string): { row: RunRow; note: string | null } | undefined {
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
  const artifacts = row.artifacts as ArtifactRefs;
  const check = checkSnapshotChange(artifacts, current, freeze.history, `baseline run ${row.run_id}`);
  return {
    metrics: store.getMetrics(row.run_id),
    source: `history baseline ${row.run_id}`,
    run_id: row.run_id,
    artifacts,
    ...(check.same ? {} : { reset_note: check.reset_note }),
    ...(note ? { note } : {}),
  };
}

/**
 * Point a suite's baseline at a run (default: its newest complete run). Only complete runs of the
 * same suite qualify: an interrupted run is missing observations, a failed one has no measures.
 */
export function setSuiteBaseline(store: RunStore, suite: string, runId?: string, note?: string): RunRow {
  let row: RunRow | undefined;
  if (runId === undefined) {
    row = store.listRuns({ suite }).find((r) => r.status === 'complete');
    if (!row) {
      throw new RgateError(
        'usage',
        `suite "${suite}" has no complete run in ${store.location}`,
        `run it first: rgate run ${suite}`,
      );
    }
  } else {
    row = store.getRun(runId);
    if (!row)
      throw new RgateError(
        'usage',
        `no run ${runId} in ${store.location}`,
        `list runs: rgate history ${suite}`,
      );
    if (row.suite !== suite) {
      throw new RgateError(
        'usage',
        `run ${runId} belongs to suite "${row.suite}", not "${suite}"`,
        `rgate baseline set ${row.suite} ${runId}`,
      );
    }
    if (row.status !== 'complete') {
      throw new RgateError(
        'usage',
        `run ${runId} is ${row.status}, not complete: it cannot be a baseline`,
        `pick a complete run: rgate history ${suite}`,
      );
    }
  }
  store.setBaseline(suite, row.run_id, note);
  return row;
}

export interface BaselineInfo {
  suite: string;
  run: RunRow;
  note: string | null;
  metrics: MetricEntry[];
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
  return { suite, run: found.row, note: found.note, metrics: store.getMetrics(found.row.run_id) };
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
