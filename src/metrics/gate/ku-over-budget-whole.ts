import { overBudgetMeasure } from './_ku.js';

/** DS012 step 3, the failure side: over-budget units a matcher loaded whole, over the budget. */
export const kuOverBudgetWhole = overBudgetMeasure(
  'ku_over_budget_whole',
  'whole',
  'loaded whole, over the budget',
);
