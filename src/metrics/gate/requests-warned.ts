import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/**
 * A system that answers while degraded ("embedding unavailable; using token-overlap scoring") often
 * says so only on stderr; this counts the answers that came with such words, so a policy can require
 * none (`{"metric": "requests_warned", "op": "max", "threshold": 0}`).
 */
export const requestsWarned: GateMeasure = {
  id: 'requests_warned',
  help:
    'numerator: requests answered successfully that wrote to stderr (warnings); denominator: requests ' +
    "answered successfully, all replays (a failed request is error_rate's). Only per-query command " +
    'systems have a stderr to read. Lower is better.',
  perQuery(ctx) {
    return [
      perRequestRate(
        this.id,
        ctx,
        (o) => (o.warnings?.length ?? 0) > 0,
        (o) => o.ok,
      ),
    ];
  },
};
