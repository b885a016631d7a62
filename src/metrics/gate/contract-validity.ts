import { perRequestRate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const contractValidity: GateMeasure = {
  id: 'contract_validity',
  help:
    "numerator: requests answered successfully with a response valid against the system's response contract; " +
    'denominator: requests, all replays, errored ones included.',
  perQuery(ctx) {
    return [perRequestRate(this.id, ctx, (o) => o.ok && o.contract.valid)];
  },
};
