import { RgateError } from '../core/errors.js';
import type { RunStore } from '../store/types.js';

/**
 * A run id as typed: the whole id, or any unique prefix of one (`rgate diff 20261123T1121 …`), so
 * nobody has to copy a 23-character id whole. An exact id always wins; a prefix shared by several
 * runs is refused with the candidates; an unknown one is returned as typed for the caller's own
 * "no run" message.
 */
export function resolveRunRef(store: RunStore, ref: string): string {
  if (ref === '' || store.getRun(ref)) return ref;
  const hits = store
    .listRuns()
    .map((r) => r.run_id)
    .filter((id) => id.startsWith(ref));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) {
    const shown = hits.slice(0, 5).join(', ');
    throw new RgateError(
      'usage',
      `run id prefix "${ref}" matches ${hits.length} runs: ${shown}${hits.length > 5 ? ', …' : ''}`,
      'type more of the id',
    );
  }
  return ref;
}
