import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/** Seed 001 "Top-1 Useful Rate": semantic wins only (which modes are semantic is the contract's setting). */
export const top1UsefulRate: GateMeasure = {
  id: 'top1_useful_rate',
  help:
    'numerator: benchmark queries whose replay-1 top-1 (selected_id, else the first ranked item) is judged ' +
    "useful AND was selected in a semantic-win selection_mode (the contract's semantic_win_modes, reported " +
    'with the system; default semantic, hybrid_rrf); denominator: benchmark queries (expectation not a ' +
    'fallback mode or no_match) with at least one judgment (qrels, useful_ids, useful_paths, or an include rule). ' +
    'An errored or timed-out request stays in the denominator and is not useful. Source: seed 001 v1.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) => {
        if (ctx.isProbe(q) || !ctx.hasJudgment(q)) return null;
        const o = ctx.first(q);
        // judgeTop1 calls an errored request 'error', so a win is always a successful answer
        return ctx.semanticWin(ctx.judgeTop1(q, o).judgment, o);
      }),
    ];
  },
};
