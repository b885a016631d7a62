import { canonicalJson, compareCodeUnits } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { RunImport } from './types.js';

/**
 * What makes an imported run the same run: sha256 of its canonical JSON, observations in (replay,
 * query id) order so the order they were sent in does not matter.
 */
export function importDigest(run: RunImport): string {
  const observations = [...run.observations].sort(
    (a, b) => a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id),
  );
  return sha256(canonicalJson({ meta: run.meta, observations, result: run.result }));
}

/** Another run under a stored run id: never overwritten, never merged. */
export function importConflict(runId: string, location: string): RgateError {
  return new RgateError(
    'input_invalid',
    `run ${runId} is already stored in ${location} with other content`,
    'a run id names one run; a retry must send the same run (rgate upload sends what the run stored)',
  );
}
