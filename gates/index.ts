/** Gate policies and the pure evaluator (DESIGN.md "Gates"). */
export { evaluateGate, ruleLabel, type GateInput, type ChecklistEvidence } from './evaluate.js';
export { loadGatePolicy, parseGatePolicy } from './policy.js';
export { isGateC } from './gate-c.js';
export { SELECTION_METRICS, TIMING_METRICS } from './metric-ids.js';
export { notApplicable, notApplicableIn, type HiddenMetric } from './metric-applies.js';
export * from './format.js';
export { separateTimingRules, withTimingRules, TIMING_STUB_REASON } from './timing-rules.js';
export { isValidReport } from './report-check.js';
export { judgeVsBase, vsBaseGateLines, type VsBaseEvidence } from './vs-base.js';
