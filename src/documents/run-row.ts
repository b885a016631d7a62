import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, StringEnum } from './keywords.js';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { VerdictSchema } from './gate-result.js';
import { ReportSystemSchema, RunSettingsSchema } from './report.js';
import { PartialConfigSchema } from './retrieval-config.js';
import { SuiteSpecSchema } from './rgate-config.js';

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

/**
 * What a run keeps so it can be resumed or re-reported later from the store alone: the suite as it
 * was specified, the config overrides it ran with, and the system as its report names it.
 */
export const StoredPlanSchema = Closed({
  spec: SuiteSpecSchema,
  overrides: PartialConfigSchema,
  system: ReportSystemSchema,
});
export type StoredPlan = Static<typeof StoredPlanSchema>;

/**
 * Where in the project's history a run was made: `git rev-parse HEAD` and the branch, or CI's
 * variables; for a pull (merge) request also its number, the branch it merges into and the commit
 * its branch forked from there (the merge base), which `rgate server` compares the run against.
 */
export const GitRefSchema = Closed({
  commit: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  pr: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  base_branch: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  merge_base: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type GitRef = Static<typeof GitRefSchema>;

/** What the run store is told when a run begins. */
export const RunMetaSchema = Closed({
  run_id: Type.String(),
  suite: Type.String(),
  started_at: Type.String(),
  /** the pinned snapshot, so runs on different snapshots are never compared by accident */
  artifacts: ArtifactRefsSchema,
  settings: RunSettingsSchema,
  /** absent for runs stored before plans were kept (store migration 3) */
  plan: Type.Optional(StoredPlanSchema),
  owner: Type.Optional(RunOwnerSchema),
  /**
   * what the run was made of, as a digest (`sha256:`): a merged run's shards. The store keeps one run
   * per key, so merging the same shards again names the run that exists.
   */
  content_key: Type.Optional(Type.String({ pattern: '^sha256:[0-9a-f]{64}$' })),
  /** the commit and branch the run was made on, when known (a CI run uploaded to `rgate server`) */
  git: Type.Optional(GitRefSchema),
  /**
   * the comparison session (`rgate compare`) this run is a variant of: not nightly history, so the
   * store lists and counts it nowhere (listRuns, summarizeRuns); getRun and its session find it
   */
  compare_session: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
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
