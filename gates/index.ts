/** Gate policies and the pure evaluator (DESIGN.md "Gates"). */
export { evaluateGate, ruleLabel, type GateInput, type ChecklistEvidence } from './evaluate.js';
export { loadGatePolicy, parseGatePolicy } from './policy.js';
export { isGateMetricId, TIMING_METRICS } from './metric-ids.js';
export * from './format.js';
export { assertValidReport } from './report-check.js';
export { separateTimingRules, withTimingRules, isTimingRule, TIMING_STUB_REASON } from './timing-rules.js';
