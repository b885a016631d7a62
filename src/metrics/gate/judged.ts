import { perQueryCounts } from './_values.js';
import type { GateMeasure } from './_types.js';

export const JUDGED_K = 10;

export const judgedAtK: GateMeasure = {
  id: `judged@${JUDGED_K}`,
  help:
    `numerator: positions 1..${JUDGED_K} of each query's replay-1 ranking holding an item some judgment covers ` +
    '(a qrels line of any grade, useful_ids, useful_paths, or the query has include rules); denominator: ' +
    `${JUDGED_K} positions per query (short or errored rankings count their empty positions as unjudged). ` +
    'A low value means the other numbers rest on few judgments.',
  perQuery(ctx) {
    return [
      perQueryCounts(this.id, ctx, (q) => {
        const o = ctx.first(q);
        let numerator = 0;
        if (o?.ok) for (const item of o.ranked.slice(0, JUDGED_K)) if (ctx.covers(q, item)) numerator++;
        return { numerator, denominator: JUDGED_K };
      }),
    ];
  },
};
