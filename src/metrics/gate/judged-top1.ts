import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/**
 * How much of the top-1 verdict rests on judgments: over exactly the queries top1_useful_rate counts,
 * the share whose top-1 some judgment covers. An unjudged top-1 counts as not useful there (as
 * trec_eval does), so a low value means the top-1 rate measures the fixture's holes, not the system.
 */
export const judgedTop1: GateMeasure = {
  id: 'judged_top1',
  help:
    'numerator: benchmark queries whose replay-1 top-1 is covered by a judgment (a qrels line of any grade, ' +
    'useful_ids, useful_paths, an include rule, or an excluded tag); denominator: the queries top1_useful_rate ' +
    'counts (benchmark queries with at least one judgment) that have a replay-1 top-1 to judge (an errored ' +
    'request or an empty answer has none, and is no judgment hole). The rest are unjudged top-1s, counted as not useful by the top-1 rates: ' +
    'grade them with rgate label pool.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) => {
        if (ctx.isProbe(q) || !ctx.hasJudgment(q)) return null;
        const j = ctx.judgeTop1(q, ctx.first(q)).judgment;
        return j === 'error' || j === 'no_answer' ? null : j !== 'unjudged';
      }),
    ];
  },
};
