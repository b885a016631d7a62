import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const, Pair, OneOf, OrNull, StringEnum } from './keywords.js';

const count = Type.Integer({ minimum: 0 });
const nullableNumber = OrNull(Type.Number());

/** A proportion that always shows what it counted. rate and wilson95 are null when denominator is 0 ("not measured"). */
export const RateValueSchema = Closed({
  kind: Const('rate'),
  numerator: count,
  denominator: count,
  rate: OrNull(Type.Number({ minimum: 0, maximum: 1 })),
  wilson95: OrNull(Pair(Type.Number())),
});
export type RateValue = Static<typeof RateValueSchema>;

/** A mean over n units with a seeded bootstrap 95% interval; null when n is 0. */
export const MeanValueSchema = Closed({
  kind: Const('mean'),
  n: count,
  mean: nullableNumber,
  ci95: OrNull(Pair(Type.Number())),
});
export type MeanValue = Static<typeof MeanValueSchema>;

/** Latency-style order statistics over n samples. */
export const QuantileValueSchema = Closed({
  kind: Const('quantiles'),
  n: count,
  p50: nullableNumber,
  p95: nullableNumber,
  p99: nullableNumber,
});
export type QuantileValue = Static<typeof QuantileValueSchema>;

export const MeasureValueSchema = OneOf([RateValueSchema, MeanValueSchema, QuantileValueSchema]);
export type MeasureValue = Static<typeof MeasureValueSchema>;

/** The `kind` of each measure value above, for documents that name a kind without its value. */
export const MeasureKindSchema = StringEnum(['rate', 'mean', 'quantiles']);
export type MeasureKind = Static<typeof MeasureKindSchema>;

/** The order statistics a quantile measure carries, and a timing rule may compare. */
export const QUANTILE_NAMES = ['p50', 'p95', 'p99'] as const;
export const QuantileNameSchema = StringEnum(QUANTILE_NAMES);
export type QuantileName = Static<typeof QuantileNameSchema>;
