import type { Observation } from '../../documents/index.js';
import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';
import { reportsSelectionMode } from './selection-mode-reporting.js';

function traceComplete(o: Observation): boolean {
  if (!o.ok) return false;
  if (o.selected_id && o.source_path) return true;
  return o.selection_mode === 'no_match' && !o.selected_id && Boolean(o.no_match_reason);
}

/**
 * Seed 001's checklist item "every response includes selection_mode, selected_id and source_path":
 * a request that passes both selection_mode_reporting and this measure. The harness and the closeout
 * count the checklist's evidence with this, so the item and the two measures cannot disagree.
 */
export function hasSelectionFields(o: Observation): boolean {
  return reportsSelectionMode(o) && traceComplete(o);
}

export const sourceTraceCompleteness: GateMeasure = {
  id: 'source_trace_completeness',
  help:
    'numerator: requests answered with a non-empty selected_id and source_path, or a well-formed no_match ' +
    '(selection_mode "no_match", nothing selected, a non-empty reason); denominator: requests, all replays, ' +
    'errored ones included. Source: seed 001 v1.',
  perQuery(ctx) {
    return [perRequestRate(this.id, ctx, traceComplete)];
  },
};
