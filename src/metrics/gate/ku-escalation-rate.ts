import { perQueryRate } from './_values.js';
import { kuAnswer } from './_ku.js';
import type { GateMeasure } from './_types.js';

export const kuEscalationRate: GateMeasure = {
  id: 'ku_escalation_rate',
  help:
    'numerator: queries whose replay-1 ResolvedIntent escalated to secondary strategies ' +
    '(retrievalTrace.escalated); denominator: queries answered with a ResolvedIntent in replay 1 (errored ' +
    'requests say nothing about escalation and are left to error_rate). Source: DS012.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) => {
        const o = kuAnswer(ctx, q);
        return o?.ok && o.ku ? o.ku.escalated : null;
      }),
    ];
  },
};
