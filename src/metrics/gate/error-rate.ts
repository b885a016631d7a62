import { rate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const errorRate: GateMeasure = {
  id: 'error_rate',
  help: 'numerator: requests that errored or timed out (ok = false); denominator: requests, all replays. Lower is better.',
  compute(ctx) {
    let num = 0;
    for (const o of ctx.observations) if (!o.ok) num++;
    return [{ id: this.id, value: rate(num, ctx.observations.length), help: this.help }];
  },
};
