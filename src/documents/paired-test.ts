/** The paired statistics of a tuning comparison: one test per metric and pair of variants. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, Pair } from './keywords.js';

const count = Type.Integer({ minimum: 0 });
const nullableNumber = OrNull(Type.Number());

export const PairedSettingsSchema = Closed({
  seed: Type.Integer(),
  alpha: Type.Number(),
  resamples: count,
  permutations: count,
});
export type PairedSettings = Static<typeof PairedSettingsSchema>;

export const PairedTestSchema = Closed({
  metric: Type.String(),
  /** variant ids: the delta is b - a */
  a: Type.String(),
  b: Type.String(),
  /** queries measured in both */
  n: count,
  mean_a: nullableNumber,
  mean_b: nullableNumber,
  mean_delta: nullableNumber,
  ci95: OrNull(Pair(Type.Number())),
  p_value: nullableNumber,
  /** Holm-adjusted over every test of the session */
  p_holm: nullableNumber,
  significant: Type.Boolean(),
  /** b better / equal / worse, per query */
  wins: count,
  ties: count,
  losses: count,
});
export type PairedTest = Static<typeof PairedTestSchema>;

export const MetricWinnerSchema = Closed({
  metric: Type.String(),
  /** the variant with the best mean over the queries every variant measured */
  best: OrNull(Type.String()),
  /** named only when `best` beats every other variant with a Holm-significant test */
  winner: OrNull(Type.String()),
  reason: Type.String(),
});
export type MetricWinner = Static<typeof MetricWinnerSchema>;
