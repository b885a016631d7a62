import { perQueryCounts } from './_values.js';
import { kuAnswer, overBudgetUnits } from './_ku.js';
import type { GateMeasure } from './_types.js';

/** DS012 step 3: a relevant KU that is too large contributes its most relevant children, not its whole text. */
export const kuOverBudgetWhole: GateMeasure = {
  id: 'ku_over_budget_whole',
  help:
    'numerator: over-budget units of replay-1 ResolvedIntents loaded whole, over the budget; denominator: relevant units over ' +
    'the per-unit size budget in those answers (listed in retrievalTrace.overBudget, or KB units loaded longer ' +
    'than the max_chars_per_file in force), resolved as children, whole or truncated. Source: DS012.',
  perQuery(ctx) {
    return [
      perQueryCounts(this.id, ctx, (q) => {
        const o = kuAnswer(ctx, q);
        const units = o?.ok ? overBudgetUnits(o) : [];
        return { numerator: units.filter((u) => u.resolution === 'whole').length, denominator: units.length };
      }),
    ];
  },
};
