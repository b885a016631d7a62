/**
 * Keep the deterministic part of a report deterministic. Rules on timing metrics (latency) read
 * wall-clock measurements, so their observed values and reasons differ between two runs of the same
 * inputs. `separateTimingRules` leaves a stable stub in `gate.rules` (metric, threshold, status) and
 * moves the full results to `timing.timing_rules`, where the report keeps run-dependent values.
 * Renderers put the full results back in place (`withTimingRules`).
 */
import type { GateResult, RuleResult } from '../src/documents/index.js';
import { ruleLabel } from './evaluate.js';
import { TIMING_METRICS } from './metric-ids.js';

export const TIMING_STUB_REASON = 'timing-dependent: the measured values are in timing.timing_rules';

export function isTimingRule(r: RuleResult): boolean {
  return TIMING_METRICS.includes(r.metric);
}

/** Example: const { gate, timing_rules } = separateTimingRules(evaluateGate(policy, input)) */
export function separateTimingRules(gate: GateResult): { gate: GateResult; timing_rules: RuleResult[] } {
  const timing_rules = gate.rules.filter(isTimingRule);
  if (timing_rules.length === 0) return { gate, timing_rules };
  const full = new Map(timing_rules.map((r) => [reasonLine(r), stubReasonLine(r)]));
  const rules = gate.rules.map((r) => (isTimingRule(r) ? stub(r) : r));
  const reasons = gate.reasons.map((line) => full.get(line) ?? line);
  return { gate: { ...gate, rules, reasons }, timing_rules };
}

/** The inverse, for display: full timing results back in `gate.rules` and `gate.reasons`. */
export function withTimingRules(gate: GateResult, timing: readonly RuleResult[] | undefined): GateResult {
  if (!timing?.length) return gate;
  const byLabel = new Map(timing.map((r) => [ruleLabel(r), r]));
  const rules = gate.rules.map((r) => (isTimingRule(r) ? (byLabel.get(ruleLabel(r)) ?? r) : r));
  const back = new Map(timing.map((r) => [stubReasonLine(r), reasonLine(r)]));
  const reasons = gate.reasons.map((line) => back.get(line) ?? line);
  return { ...gate, rules, reasons };
}

function stub(r: RuleResult): RuleResult {
  const s: RuleResult = {
    metric: r.metric,
    op: r.op,
    threshold: r.threshold,
    observed: null,
    status: r.status,
    reason: TIMING_STUB_REASON,
  };
  if (r.quantile) s.quantile = r.quantile;
  if (r.per) s.per = r.per;
  if (r.watch_band) s.watch_band = r.watch_band;
  return s;
}

function reasonLine(r: RuleResult): string {
  return `${r.status.toUpperCase()} ${ruleLabel(r)}: ${r.reason}`;
}

function stubReasonLine(r: RuleResult): string {
  return `${r.status.toUpperCase()} ${ruleLabel(r)}: ${TIMING_STUB_REASON}`;
}
