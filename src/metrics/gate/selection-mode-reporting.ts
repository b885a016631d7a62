import { rate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const selectionModeReporting: GateMeasure = {
  id: 'selection_mode_reporting',
  help:
    'numerator: requests (every replay) answered successfully with a valid selection_mode (semantic, ' +
    'fallback_exact_key, fallback_path_priority, no_match); denominator: requests, all replays, errored ' +
    'ones included. Source: seed 001 v1.',
  compute(ctx) {
    let num = 0;
    for (const o of ctx.observations) if (o.ok && ctx.isValidMode(o.selection_mode)) num++;
    return [{ id: this.id, value: rate(num, ctx.observations.length), help: this.help }];
  },
};
