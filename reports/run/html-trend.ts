/**
 * The "Trend over the suite's history" section of the HTML report: one line per gate metric of the
 * report's own gate, over the suite's earlier runs and this one (oldest -> newest), with the rule's
 * threshold as a dashed line. Pure over the report and a history document; the client script draws it.
 */
import { pct, num, TIMING_METRICS } from '../../gates/index.js';
import { compareCodeUnits } from '../../src/core/canonical-json.js';
import type { HistoryView as HistoryViewModel, Report, RuleResult } from '../../src/documents/index.js';
import { displayGate } from './view.js';

/** What the client script reads for one trend chart (travels in the escaped JSON data block). */
export interface TrendChartData {
  id: string;
  metric: string;
  kind: 'rate' | 'mean';
  /** x labels, two lines each: start time (UTC, minutes) and run id */
  labels: [string, string][];
  values: (number | null)[];
  threshold: number | null;
  threshold_label: string;
  /** run i used a different snapshot or config than this run: not comparable */
  other_snapshot: boolean[];
}

export interface TrendSection {
  prior: number;
  charts: { id: string; metric: string; caption: string }[];
  runs: { run_id: string; started_at: string; verdict: string; snapshot: string; current: boolean }[];
  other_runs: string[];
  /** the run this one's regression alarms compared with (the history's newest only), or '' */
  compared_with: string;
  /** this run's regression alarms, as `rgate history` states them (when it is the history's newest) */
  alarms: string[];
  data: TrendChartData[];
}

/** Rules a trend can draw: rate or mean metrics on their own scale (not baseline-relative, not timing). */
function chartedRules(report: Report): { metric: string; rule: RuleResult | undefined }[] {
  const seen = new Map<string, RuleResult | undefined>();
  for (const r of displayGate(report).rules) {
    if (r.metric === 'query_count' || TIMING_METRICS.includes(r.metric)) continue;
    // a metric may carry a baseline rule and an absolute one: the absolute one gives the line
    const absolute = r.baseline ? undefined : r;
    if (!seen.has(r.metric)) seen.set(r.metric, absolute);
    else if (!seen.get(r.metric) && absolute) seen.set(r.metric, absolute);
  }
  return [...seen].map(([metric, rule]) => ({ metric, rule }));
}

function thresholdLabel(rule: RuleResult, kind: 'rate' | 'mean'): string {
  const v = kind === 'rate' ? pct(rule.threshold) : num(rule.threshold);
  return `${rule.op} ${v}`;
}

/**
 * The section, or null when there is nothing to trend: no history, or no earlier complete run.
 * The history may or may not contain this run (an interrupted run is not in it) and may reach past
 * it; runs after this one are never drawn.
 */
export function trendSection(report: Report, history: HistoryViewModel | undefined): TrendSection | null {
  if (!history) return null;
  const runId = report.environment.run_id;
  const at = history.runs.findIndex((r) => r.run_id === runId);
  const prior =
    at >= 0
      ? history.runs.slice(0, at)
      : history.runs.filter(
          (r) => compareCodeUnits(r.started_at, report.environment.started_at) <= 0 && r.run_id !== runId,
        );
  if (prior.length === 0) return null;

  // history.ts knows, per run, whether its snapshot differs from the run before it
  const changed = new Map<string, boolean>();
  for (const t of history.trends) {
    for (const p of t.points) if (!changed.has(p.run_id)) changed.set(p.run_id, p.snapshot_changed);
  }
  const seq = [
    ...prior.map((r) => ({ run_id: r.run_id, started_at: r.started_at, verdict: r.verdict ?? '-' })),
    { run_id: runId, started_at: report.environment.started_at, verdict: report.gate.verdict },
  ];
  // when this run is the history's newest, the history says which runs share its snapshot and
  // config (an A -> B -> A history: the first A does); otherwise a run is on this run's snapshot
  // when no change lies between them (conservative: the first A is marked)
  const other = seq.map(() => false);
  if (at >= 0 && at === history.runs.length - 1) {
    prior.forEach((r, i) => (other[i] = r.same_as_newest === false));
  } else {
    let crossed = false;
    for (let i = seq.length - 1; i >= 0; i--) {
      other[i] = crossed;
      if (changed.get(seq[i]!.run_id) === true) crossed = true;
    }
  }
  const labels = seq.map((r) => [r.started_at.slice(0, 16).replace('T', ' '), r.run_id] as [string, string]);

  const data: TrendChartData[] = [];
  for (const { metric, rule } of chartedRules(report)) {
    const entry = report.metrics.find((m) => m.id === metric);
    const trend = history.trends.find((t) => t.metric === metric);
    const kind = entry?.value.kind ?? trend?.kind;
    if (kind !== 'rate' && kind !== 'mean') continue;
    const byRun = new Map((trend?.points ?? []).map((p) => [p.run_id, p.value] as const));
    const own = entry
      ? entry.value.kind === 'rate'
        ? entry.value.rate
        : entry.value.kind === 'mean'
          ? entry.value.mean
          : null
      : null;
    data.push({
      id: `trend-${data.length}`,
      metric,
      kind,
      labels,
      values: [...prior.map((r) => byRun.get(r.run_id) ?? null), own],
      threshold: rule ? rule.threshold : null,
      threshold_label: rule ? thresholdLabel(rule, kind) : '',
      other_snapshot: other,
    });
  }
  if (data.length === 0) return null;
  const newest = at >= 0 && at === history.runs.length - 1;

  return {
    prior: prior.length,
    charts: data.map((d) => ({
      id: d.id,
      metric: d.metric,
      caption: d.threshold_label ? `threshold ${d.threshold_label}` : 'baseline rule: no fixed threshold',
    })),
    runs: seq.map((r, i) => ({
      ...r,
      snapshot: other[i] ? 'different' : 'same',
      current: i === seq.length - 1,
    })),
    other_runs: seq.filter((_, i) => other[i]).map((r) => r.run_id),
    compared_with: newest ? (history.compared_with ?? '') : '',
    alarms: newest ? [...history.alarms] : [],
    data,
  };
}
