import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const errorRate: GateMeasure = {
  id: 'error_rate',
  help: 'numerator: requests that errored or timed out (ok = false); denominator: requests, all replays. Lower is better.',
  perQuery(ctx) {
    return [perRequestRate(this.id, ctx, (o) => !o.ok)];
  },
};
