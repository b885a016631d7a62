import type { RetrievalConfig, SystemSpec } from '../documents/index.js';
import type { NormalizeOptions } from './normalize/index.js';

/**
 * Which entries of a context-load answer are ranked: the effective config's
 * `system.ranked_entries` (the suite's setting folded in by the run plan, or a `--set` variant),
 * else the system spec's own (a system built outside a run plan), else the normaliser's default.
 */
export function rankedEntriesOption(
  spec: Exclude<SystemSpec, { type: 'builtin' }>,
  config: RetrievalConfig | undefined,
): NormalizeOptions {
  const ranked = config?.system?.ranked_entries ?? spec.ranked_entries;
  return ranked !== undefined ? { rankedEntries: ranked } : {};
}
