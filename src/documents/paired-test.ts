/** The paired statistics of a tuning comparison: one test per metric and pair of variants. */
import { Type, type Static } from '@sinclair/typebox';
import { DetectableSchema } from './detectable.js';
import { Closed, OrNull, Pair } from './keywords.js';

const count = Type.Integer({ minimum: 0 });
const nullableNumber = OrNull(Type.Number());

/** The paired test behind p: the sign-flip randomization test, or Student's paired t-test. */
export const PairedTestKindSchema = Type.Union([Type.Literal('sign-flip'), Type.Literal('t')]);
export type PairedTestKind = Static<typeof PairedTestKindSchema>;

export const PairedSettingsSchema = Closed({
  seed: Type.Integer(),
  alpha: Type.Number(),
  resamples: count,
  permutations: count,
  /** absent: the sign-flip test (every session stored before the t-test was offered) */
  test: Type.Optional(PairedTestKindSchema),
});
export type PairedSettings = Static<typeof PairedSettingsSchema>;

export const PairedTestSchema = Closed({
  metric: Type.String(),
  /** variant ids: the delta is b - a */
  a: Type.String(),
  b: Type.String(),
  /** queries measured in both */
  n: count,
  /**
   * the gate's denominator for this metric in each variant's report (a rate's denominator, a
   * mean's n); null where the report has no such metric. Absent in sessions written before it existed.
   */
  gate_n: Type.Optional(Pair(OrNull(count))),
  /** queries with a value for this metric in one of the two variants only (left out of the test) */
  unpaired: Type.Optional(Type.Array(Type.String())),
  /** n stated against the gate: "n=18 (gate denominator 18)", or why the two differ */
  n_basis: Type.Optional(Type.String()),
  mean_a: nullableNumber,
  mean_b: nullableNumber,
  mean_delta: nullableNumber,
  ci95: OrNull(Pair(Type.Number())),
  p_value: nullableNumber,
  /**
   * true when p_value is exact (every sign assignment counted), false when it is estimated from the
   * session's permutations (then it carries Monte Carlo error and is never below 1/(permutations+1)).
   * Absent in sessions written before it was recorded.
   */
  p_exact: Type.Optional(Type.Boolean()),
  /** the t statistic and its degrees of freedom, when the session's test is the t-test (null: infinite t) */
  t: Type.Optional(OrNull(Type.Number())),
  df: Type.Optional(count),
  /** Holm-adjusted over every test of the session */
  p_holm: nullableNumber,
  significant: Type.Boolean(),
  /** b better / equal / worse, per query */
  wins: count,
  ties: count,
  losses: count,
  /**
   * the smallest mean delta this test's queries could detect (two-sided, at the session's alpha before
   * Holm, 80% power) from the spread of the per-query differences. Absent below 2 queries and in
   * sessions written before it existed
   */
  detectable: Type.Optional(DetectableSchema),
});
export type PairedTest = Static<typeof PairedTestSchema>;

export const MetricWinnerSchema = Closed({
  metric: Type.String(),
  /** the variant with the best mean over the queries every variant measured */
  best: OrNull(Type.String()),
  /** named only when `best` beats every other variant with a Holm-significant test */
  winner: OrNull(Type.String()),
  reason: Type.String(),
  /**
   * true when `best`'s lead over another variant is a label effect (the session's label_effects: no
   * top-1 flip, every ranking measure tied): no retrieval winner is named, however small its p.
   * Absent otherwise and in sessions written before it.
   */
  label_effect: Type.Optional(Type.Boolean()),
});
export type MetricWinner = Static<typeof MetricWinnerSchema>;
