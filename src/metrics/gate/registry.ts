import { budgetCompliance } from './budget-compliance.js';
import { budgetUsage } from './budget-usage.js';
import { contractValidity } from './contract-validity.js';
import { errorRate } from './error-rate.js';
import { fallbackDeterminism } from './fallback-determinism.js';
import { fallbackExpectationMet } from './fallback-expectation-met.js';
import { judgedAtK } from './judged.js';
import { judgedTop1 } from './judged-top1.js';
import { kuEscalationRate } from './ku-escalation-rate.js';
import { kuGuidanceRetention } from './ku-guidance-retention.js';
import { kuLevelAppropriateness } from './ku-level-appropriateness.js';
import { kuOverBudgetSplit } from './ku-over-budget-split.js';
import { kuOverBudgetWhole } from './ku-over-budget-whole.js';
import { orderingCompliance } from './ordering-compliance.js';
import { replayDeterminism } from './replay-determinism.js';
import { requestsWarned } from './requests-warned.js';
import { selectionModeReporting } from './selection-mode-reporting.js';
import { sensitiveLeakRate } from './sensitive-leak-rate.js';
import { sourceTraceCompleteness } from './source-trace-completeness.js';
import { sourceTraceResolvable } from './source-trace-resolvable.js';
import { top1UsefulAnyMode } from './top1-useful-any-mode.js';
import { top1UsefulRate } from './top1-useful-rate.js';
import type { GateMeasure } from './_types.js';

/** Every gate measure in report order (seed 001's four first). latency.ts is reported under timing. */
export const GATE_MEASURES: readonly GateMeasure[] = [
  top1UsefulRate,
  fallbackDeterminism,
  selectionModeReporting,
  sourceTraceCompleteness,
  top1UsefulAnyMode,
  fallbackExpectationMet,
  sourceTraceResolvable,
  replayDeterminism,
  contractValidity,
  budgetCompliance,
  orderingCompliance,
  sensitiveLeakRate,
  errorRate,
  judgedTop1,
  requestsWarned,
  judgedAtK,
  budgetUsage,
  kuGuidanceRetention,
  kuLevelAppropriateness,
  kuEscalationRate,
  kuOverBudgetSplit,
  kuOverBudgetWhole,
];

/** Metric ids the gate measures emit (budget_usage emits one per usage field). */
export const GATE_METRIC_IDS: readonly string[] = GATE_MEASURES.flatMap((m) =>
  m.id === 'budget_usage' ? ['budget_usage.files', 'budget_usage.chars', 'budget_usage.tokens'] : [m.id],
);
