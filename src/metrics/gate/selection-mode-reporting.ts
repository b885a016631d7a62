import { SELECTION_MODES, type Observation } from '../../documents/index.js';
import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/** A request answered successfully with one of the contract's selection modes. */
export function reportsSelectionMode(o: Observation): boolean {
  return o.ok && (SELECTION_MODES as readonly unknown[]).includes(o.selection_mode);
}

export const selectionModeReporting: GateMeasure = {
  id: 'selection_mode_reporting',
  help:
    'numerator: requests (every replay) answered successfully with a valid selection_mode (semantic, ' +
    'hybrid_rrf, fallback_exact_key, fallback_path_priority, no_match); denominator: requests, all replays, errored ' +
    'ones included. Source: seed 001 v1.',
  perQuery(ctx) {
    return [perRequestRate(this.id, ctx, reportsSelectionMode)];
  },
};
