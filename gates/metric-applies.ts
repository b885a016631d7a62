import type { MetricEntry, Report } from '../src/documents/index.js';
import { SELECTION_METRICS } from './metric-ids.js';
import { withTimingRules } from './timing-rules.js';

export interface HiddenMetric {
  id: string;
  why: string;
}

/**
 * Measures that do not apply to a run, and why: selection measures without a selection step, and
 * rates with nothing to count (0/0). A metric a gate rule reads always applies (its rule may fail on
 * it). One rule for every list of metrics a person reads (run report, baseline show); the JSON
 * documents keep all of them.
 */
export function notApplicable(
  metrics: readonly MetricEntry[],
  opts: { ruled: ReadonlySet<string>; selectionStep: boolean },
): HiddenMetric[] {
  const hidden: HiddenMetric[] = [];
  for (const m of metrics) {
    if (opts.ruled.has(m.id)) continue;
    if (!opts.selectionStep && SELECTION_METRICS.includes(m.id))
      hidden.push({ id: m.id, why: 'no selection step' });
    else if (m.value.kind === 'rate' && m.value.denominator === 0)
      hidden.push({ id: m.id, why: 'nothing to count' });
    // 0 of n answers warned says nothing a quiet system needs to hear (the JSON keeps it; a rule shows it)
    else if (m.id === 'requests_warned' && m.value.kind === 'rate' && m.value.numerator === 0)
      hidden.push({ id: m.id, why: 'no answer wrote to stderr' });
  }
  return hidden;
}

/**
 * The measures of a run report that do not apply to it: the rule above, with the run's gate rules
 * (timing rules included) as the ruled set and its judging's selection step. The run report hides
 * these; a tuning comparison does not test them.
 */
export function notApplicableIn(report: Report): HiddenMetric[] {
  return notApplicable(report.metrics, {
    ruled: new Set(withTimingRules(report.gate, report.timing.timing_rules).rules.map((r) => r.metric)),
    selectionStep: report.judging?.selection_step ?? false,
  });
}
