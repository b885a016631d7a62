import { overBudgetMeasure } from './_ku.js';

/** DS012 step 3: a relevant KU that is too large contributes its most relevant children, not its whole text. */
export const kuOverBudgetSplit = overBudgetMeasure(
  'ku_over_budget_split',
  'children',
  'split into their most relevant children',
);
