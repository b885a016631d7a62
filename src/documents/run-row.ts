import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, StringEnum } from './keywords.js';
import { VerdictSchema } from './gate-result.js';

export const RunStatusSchema = StringEnum(['running', 'complete', 'interrupted', 'failed']);
export type RunStatus = Static<typeof RunStatusSchema>;

/** What the run store is told when a run begins. */
export const RunMetaSchema = Closed({
  run_id: Type.String(),
  suite: Type.String(),
  started_at: Type.String(),
  /** canonical JSON of the ArtifactRefs, so runs on different snapshots are never compared by accident */
  artifacts: Type.Unknown(),
  settings: Type.Unknown(),
});
export type RunMeta = Static<typeof RunMetaSchema>;

/** One run as the run store lists it. */
export const RunRowSchema = Closed({
  ...RunMetaSchema.properties,
  status: RunStatusSchema,
  finished_at: OrNull(Type.String()),
  gate_id: OrNull(Type.String()),
  verdict: OrNull(VerdictSchema),
  observation_count: Type.Integer({ minimum: 0 }),
});
export type RunRow = Static<typeof RunRowSchema>;
