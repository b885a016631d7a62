/** `rgate history`: per-metric trends over a suite's stored runs, with the newest run's alarms. */
import { Type, type Static } from '@sinclair/typebox';
import { BetterSchema } from './better.js';
import { RuleStatusSchema, VerdictSchema } from './gate-result.js';
import { Closed, OrNull, Pair } from './keywords.js';
import { MeasureKindSchema } from './measure-value.js';
import { PairedSettingsSchema, PairedTestSchema } from './paired-test.js';
import { RunStatusSchema } from './run-row.js';

const count = Type.Integer({ minimum: 0 });

export const TrendPointSchema = Closed({
  run_id: Type.String(),
  started_at: Type.String(),
  /** the headline number: a rate, a mean, or p95 for quantiles; null when not measured */
  value: OrNull(Type.Number()),
  numerator: Type.Optional(count),
  denominator: Type.Optional(count),
  /** Wilson 95% (rates) or bootstrap 95% (means) of this run */
  interval: OrNull(Pair(Type.Number())),
  verdict: OrNull(VerdictSchema),
  /** the pinned snapshot differs from the previous point's: values on either side are not comparable */
  snapshot_changed: Type.Boolean(),
});
export type TrendPoint = Static<typeof TrendPointSchema>;

export const MetricTrendSchema = Closed({
  metric: Type.String(),
  kind: MeasureKindSchema,
  /** named by a rule of the latest run's gate */
  gate_metric: Type.Boolean(),
  /** how the latest run's gate judged it (the worst of the rules naming it); null when no rule does */
  rule_status: OrNull(RuleStatusSchema),
  /** 'lower' for error/leak/latency style metrics and for gate rules stated as a max */
  better: BetterSchema,
  /** oldest -> newest */
  points: Type.Array(TrendPointSchema),
  sparkline: Type.String(),
  latest: OrNull(Type.Number()),
  /** latest minus the previous point's value; null without two measured points */
  delta: OrNull(Type.Number()),
  /** why this metric alarms at the newest run, or null */
  alarm: OrNull(Type.String()),
});
export type MetricTrend = Static<typeof MetricTrendSchema>;

export const HistoryRunSchema = Closed({
  run_id: Type.String(),
  started_at: Type.String(),
  status: RunStatusSchema,
  gate_id: OrNull(Type.String()),
  verdict: OrNull(VerdictSchema),
  version: OrNull(Type.String()),
  /** what changed since the previous complete run (snapshot version, corpus, queries, config), with the reset note */
  change: Type.Optional(Type.String()),
  /** on the newest complete run's snapshot and effective config (its metrics are comparable); complete runs only */
  same_as_newest: Type.Optional(Type.Boolean()),
});
export type HistoryRun = Static<typeof HistoryRunSchema>;

export const HistoryViewSchema = Closed({
  suite: Type.String(),
  /** complete runs in the trend, oldest -> newest */
  runs: Type.Array(HistoryRunSchema),
  /** runs left out of the trend (running, interrupted, failed) */
  skipped: Type.Array(HistoryRunSchema),
  trends: Type.Array(MetricTrendSchema),
  /** measures of the newest run that do not apply to it (no trend shown), and why */
  not_applicable: Type.Array(Closed({ id: Type.String(), why: Type.String() })),
  /** every alarm of the newest run, metric alarms and a worsened verdict */
  alarms: Type.Array(Type.String()),
  /**
   * the run the newest run's metrics were compared with: the newest earlier complete run on the same
   * snapshot and effective config; absent when there is none
   */
  compared_with: Type.Optional(Type.String()),
  /**
   * why the newest run was not tested against `compared_with` query by query although it was compared
   * with it: a stored report missing or unreadable. The no-alarm line says so, since only the
   * interval alarm could then speak.
   */
  paired_unavailable: Type.Optional(Type.String()),
  /**
   * how many of the newest runs the alarm was decided from: 20 (ALARM_WINDOW), or fewer when fewer
   * were asked of the store (`--limit 5`).
   */
  alarm_window: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * the newest run query by query against `compared_with` and against the suite's baseline (when it
   * is another, earlier run on the same snapshot and config): a paired sign-flip test per gate metric
   * both stored reports give per-query values for (a = the run compared with, b = the newest),
   * Holm-corrected over all of them; a significant change the bad way alarms. Absent when neither
   * comparison has both reports.
   */
  paired: Type.Optional(
    Closed({
      settings: PairedSettingsSchema,
      tests: Type.Array(PairedTestSchema),
      /** the suite's baseline run, when the newest run was also tested against it (tests whose `a` is it) */
      baseline: Type.Optional(Type.String()),
    }),
  ),
  /**
   * the run the newest run's verdict was compared with: the complete run before it, when that run is
   * among the newest 20 (the alarm window); absent otherwise
   */
  verdict_compared_with: Type.Optional(Type.String()),
});
export type HistoryView = Static<typeof HistoryViewSchema>;
