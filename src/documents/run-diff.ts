/**
 * `rgate diff <runA> <runB>`: what changed per query between two stored reports (a = older /
 * reference, b = newer / candidate).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { Closed, OrNull, Pair, StringEnum } from './keywords.js';
import { Top1JudgmentSchema } from './query-outcome.js';
import { SelectionModeSchema } from './selection-mode.js';

const nullableNumber = OrNull(Type.Number());
const nullableString = OrNull(Type.String());

export const MeasureDeltaSchema = Closed({
  measure: Type.String(),
  a: nullableNumber,
  b: nullableNumber,
  delta: nullableNumber,
});
export type MeasureDelta = Static<typeof MeasureDeltaSchema>;

export const QueryChangeSchema = Closed({
  query_id: Type.String(),
  text: Type.String(),
  class: StringEnum(['regression', 'improvement', 'mixed', 'neutral']),
  /** one line per change, e.g. "top-1 useful -> not_useful" */
  changes: Type.Array(Type.String()),
  /** [run a, run b] */
  top1: Pair(Top1JudgmentSchema),
  selected_id: Pair(nullableString),
  selection_mode: Pair(OrNull(SelectionModeSchema)),
  measures: Type.Array(MeasureDeltaSchema),
});
export type QueryChange = Static<typeof QueryChangeSchema>;

const RunSideSchema = Closed({
  run_id: Type.String(),
  artifacts: ArtifactRefsSchema,
  verdict: Type.String(),
});

export const RunDiffSchema = Closed({
  a: RunSideSchema,
  b: RunSideSchema,
  same_snapshot: Type.Boolean(),
  metrics: Type.Array(MeasureDeltaSchema),
  regressions: Type.Array(QueryChangeSchema),
  improvements: Type.Array(QueryChangeSchema),
  /** every query whose selected top-1 record changed (whatever its judgment) */
  changed_top1: Type.Array(QueryChangeSchema),
  changed_selection_mode: Type.Array(QueryChangeSchema),
  /** changed in both directions at once, or changed without a better/worse reading */
  other_changes: Type.Array(QueryChangeSchema),
  only_in_a: Type.Array(Type.String()),
  only_in_b: Type.Array(Type.String()),
  unchanged: Type.Integer({ minimum: 0 }),
});
export type RunDiff = Static<typeof RunDiffSchema>;
