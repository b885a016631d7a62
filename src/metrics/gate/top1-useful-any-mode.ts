import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

export const top1UsefulAnyMode: GateMeasure = {
  id: 'top1_useful_any_mode',
  help:
    'numerator: benchmark queries whose replay-1 top-1 is judged useful, whatever the selection mode ' +
    '(semantic, fallback, or none reported); denominator: benchmark queries with at least one judgment. ' +
    'Errored requests stay in the denominator and are not useful.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) =>
        ctx.isProbe(q) || !ctx.hasJudgment(q) ? null : ctx.judgeTop1(q, ctx.first(q)).judgment === 'useful',
      ),
    ];
  },
};
