import type { Observation } from '../../documents/index.js';
import { rate } from './_values.js';
import type { GateMeasure } from './_types.js';

export function traceComplete(o: Observation): boolean {
  if (!o.ok) return false;
  if (o.selected_id && o.source_path) return true;
  return o.selection_mode === 'no_match' && !o.selected_id && Boolean(o.no_match_reason);
}

export const sourceTraceCompleteness: GateMeasure = {
  id: 'source_trace_completeness',
  help:
    'numerator: requests answered with a non-empty selected_id and source_path, or a well-formed no_match ' +
    '(selection_mode "no_match", nothing selected, a non-empty reason); denominator: requests, all replays, ' +
    'errored ones included. Source: seed 001 v1.',
  compute(ctx) {
    let num = 0;
    for (const o of ctx.observations) if (traceComplete(o)) num++;
    return [{ id: this.id, value: rate(num, ctx.observations.length), help: this.help }];
  },
};
