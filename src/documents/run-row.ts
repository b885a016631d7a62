import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, StringEnum } from './keywords.js';
import { VerdictSchema } from './gate-result.js';

/** `abandoned` is never stored: it is a `running` run whose process is gone (see run-owner). */
export const RunStatusSchema = StringEnum(['running', 'complete', 'interrupted', 'failed', 'abandoned']);
export type RunStatus = Static<typeof RunStatusSchema>;

/** The process a run belongs to while it runs. */
export const RunOwnerSchema = Closed({
  host: Type.String(),
  pid: Type.Integer({ minimum: 1 }),
  /** Linux: the process start time (clock ticks since boot), to tell a reused pid apart */
  started: Type.Optional(Type.String()),
});
export type RunOwner = Static<typeof RunOwnerSchema>;

/** What the run store is told when a run begins. */
export const RunMetaSchema = Closed({
  run_id: Type.String(),
  suite: Type.String(),
  started_at: Type.String(),
  /** canonical JSON of the ArtifactRefs, so runs on different snapshots are never compared by accident */
  artifacts: Type.Unknown(),
  settings: Type.Unknown(),
  /** what is needed to resume or re-report the run later: the suite spec, config overrides, system */
  plan: Type.Optional(Type.Unknown()),
  owner: Type.Optional(RunOwnerSchema),
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
