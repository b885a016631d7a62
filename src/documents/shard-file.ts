import { Type, type Static } from '@sinclair/typebox';
import { ArtifactRefsSchema } from './artifact-refs.js';
import { Closed, Const } from './keywords.js';
import { ObservationSchema } from './observation.js';
import { ReportSystemSchema, RunSettingsSchema } from './report.js';
import { PartialConfigSchema } from './retrieval-config.js';
import { SuiteSpecSchema } from './rgate-config.js';

export const SHARD_SCHEMA_VERSION = 'rgate-shard/1';

/**
 * One CI runner's slice of a run (`rgate run --shard i/n`): the observations of its (replay, query)
 * pairs plus everything `rgate merge` needs to check that every shard ran the same suite on the same
 * snapshots and settings, and to measure the whole run afterwards.
 */
export const ShardFileSchema = Closed({
  schema: Const(SHARD_SCHEMA_VERSION),
  suite: Type.String({ minLength: 1 }),
  shard: Closed({ index: Type.Integer({ minimum: 1 }), count: Type.Integer({ minimum: 1 }) }),
  artifacts: ArtifactRefsSchema,
  settings: RunSettingsSchema,
  spec: SuiteSpecSchema,
  overrides: PartialConfigSchema,
  system: ReportSystemSchema,
  observations: Type.Array(ObservationSchema),
});
export type ShardFile = Static<typeof ShardFileSchema>;
