import { rate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const contractValidity: GateMeasure = {
  id: 'contract_validity',
  help:
    "numerator: requests answered successfully with a response valid against the system's response contract; " +
    'denominator: requests, all replays, errored ones included.',
  compute(ctx) {
    let num = 0;
    for (const o of ctx.observations) if (o.ok && o.contract.valid) num++;
    return [{ id: this.id, value: rate(num, ctx.observations.length), help: this.help }];
  },
};
