/**
 * The evidence the seed-001 QA checklist is checked on, from a run's observations. One builder for
 * the run's report and the Gate C closeout, so the closeout never ticks an item differently from the
 * report of the same run.
 */
import type { ArtifactRefs, Observation } from '../src/documents/index.js';
import { hasSelectionFields } from '../src/metrics/index.js';
import type { ChecklistEvidence } from '../gates/index.js';

export function checklistEvidence(
  observations: readonly Observation[],
  replayIdentical: boolean,
  artifacts: ArtifactRefs,
  semanticWinModes: readonly string[],
): ChecklistEvidence {
  const complete = observations.filter(hasSelectionFields).length;
  const fallbacks = observations.filter((o) => o.fallback.triggered);
  return {
    pinned: Boolean(artifacts.corpus_id && artifacts.query_set_id && artifacts.config_id),
    every_response_has_selection_fields: { numerator: complete, denominator: observations.length },
    // a fallback answer must not claim a semantic selection
    fallback_ordering_evidenced: fallbacks.every(
      (o) => o.selection_mode === undefined || !semanticWinModes.includes(o.selection_mode),
    ),
    fallback_observations: fallbacks.length,
    replay_identical: replayIdentical,
  };
}
