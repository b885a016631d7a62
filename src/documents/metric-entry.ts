import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringMap } from './keywords.js';
import { MeasureValueSchema } from './measure-value.js';

export const MetricEntrySchema = Closed({
  id: Type.String(),
  value: MeasureValueSchema,
  /** what the numerator and denominator (or n) count */
  help: Type.String(),
});
export type MetricEntry = Static<typeof MetricEntrySchema>;

/** The measures again, per group of queries. */
export const BreakdownSchema = Closed({
  /** e.g. "selection_mode", "profile", "tag" */
  by: Type.String(),
  rows: Type.Array(Closed({ key: Type.String(), metrics: StringMap(MeasureValueSchema) })),
});
export type Breakdown = Static<typeof BreakdownSchema>;
