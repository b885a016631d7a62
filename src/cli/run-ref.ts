import { RgateError } from '../core/errors.js';
import type { RunStore } from '../store/types.js';

/** How many runs an ambiguous prefix's error names; the rest are counted. */
const SHOWN = 5;

/**
 * A run id as typed: the whole id, or any unique prefix of one (`rgate diff 20261123T1121 …`), so
 * nobody has to copy a 23-character id whole. An exact id always wins; a prefix shared by several
 * runs is refused with the newest few candidates and how many more there are; an unknown one is
 * returned as typed for the caller's own "no run" message. The store answers the prefix itself,
 * so a history of thousands of runs is not read to resolve one.
 */
export function resolveRunRef(store: RunStore, ref: string): string {
  if (ref === '' || store.getRun(ref)) return ref;
  const hits = store.listRuns({ idPrefix: ref, limit: SHOWN + 1 }).map((r) => r.run_id);
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) {
    const total = hits.length > SHOWN ? store.summarizeRuns({ idPrefix: ref }).run_count : hits.length;
    const more = total - SHOWN;
    throw new RgateError(
      'usage',
      `run id prefix "${ref}" matches ${total} runs: ${hits.slice(0, SHOWN).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      'type more of the id',
    );
  }
  return ref;
}
