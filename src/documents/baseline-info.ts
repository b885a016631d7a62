import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull } from './keywords.js';
import { MetricEntrySchema } from './metric-entry.js';
import { RunRowSchema } from './run-row.js';

/** `rgate baseline show`: the run a suite's baseline points at, its note and its measures. */
export const BaselineInfoSchema = Closed({
  suite: Type.String(),
  run: RunRowSchema,
  note: OrNull(Type.String()),
  metrics: Type.Array(MetricEntrySchema),
});
export type BaselineInfo = Static<typeof BaselineInfoSchema>;
