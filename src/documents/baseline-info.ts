import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull } from './keywords.js';
import { MetricEntrySchema } from './metric-entry.js';
import { RunRowSchema } from './run-row.js';

/** `rgate baseline show`: the run a suite's baseline points at, its note and its measures. */
export const BaselineInfoSchema = Closed({
  suite: Type.String(),
  run: RunRowSchema,
  note: OrNull(Type.String()),
  /** the measures that apply to that run (a rule reads them, or they had something to count) */
  metrics: Type.Array(MetricEntrySchema),
  /** measures the run recorded that do not apply to it, and why ("no selection step", "nothing to count") */
  not_applicable: Type.Array(Closed({ id: Type.String(), why: Type.String() })),
});
export type BaselineInfo = Static<typeof BaselineInfoSchema>;
