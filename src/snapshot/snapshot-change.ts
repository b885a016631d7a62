/**
 * The seed 000 binding between runs on different pinned snapshots: they are never compared unless
 * the fixture's freeze history carries a baseline reset note for every version step between them.
 */
import { compareCodeUnits } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import type { ArtifactRefs, FreezeHistoryEntry } from '../documents/index.js';
import { compareVersions } from './version.js';

export type SnapshotCheck = { same: true } | { same: false; reset_note: string; steps: FreezeHistoryEntry[] };

const ID_FIELDS = ['corpus_id', 'query_set_id', 'config_id'] as const;

/**
 * A run's config id without the `+overrides` marker: a tuning variant or `--set` run is still on
 * the frozen config file, and comparing configurations is the point of a baseline.
 */
export function frozenConfigId(id: string): string {
  // `+overrides` (runs stored before config ids named their effective config) or `+overrides-<hex>`
  return id.replace(/\+overrides(-[0-9a-f]+)?$/, '');
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
