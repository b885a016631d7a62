import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, StringMap } from './keywords.js';
import { PartialConfigSchema } from './retrieval-config.js';
import { SystemSpecSchema } from './system-spec.js';

/** One named suite: what to replay against which system, and how. */
export const SuiteSpecSchema = Closed({
  description: Type.Optional(Type.String()),
  /** a fixture set name under `fixtures/` or a path (relative to the config file) to a fixture folder */
  fixture: Type.String({ minLength: 1 }),
  system: SystemSpecSchema,
  /** overrides on the fixture's config snapshot (deep-merged; the merged config is what gets hashed) */
  config: Type.Optional(PartialConfigSchema),
  /** a gate id (`gates/<id>.gate.json`) or a path to a policy file; null = no gate (measures only) */
  gate: Type.Optional(OrNull(Type.String({ minLength: 1 }))),
  /** default 5 */
  replays: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  /** requests in flight; default 1 */
  concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
  /** restart the system (fresh process / engine) between replays; default false */
  restart_between_replays: Type.Optional(Type.Boolean()),
  /** lowest grade that counts as relevant (trec_eval -l); default 1 */
  relevance_level: Type.Optional(Type.Integer({ minimum: 0 })),
  /** trec_eval-style measure names (`map`, `P.30`, `ndcg_cut.10`, `recall.1000`) */
  ranking_measures: Type.Optional(
    Type.Array(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[0-9]+(,[0-9]+)*)?$' })),
  ),
  /** seed of the replay orders and bootstrap intervals; default 20261122 */
  seed: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type SuiteSpec = Static<typeof SuiteSpecSchema>;

/** rgate.config.json: named evaluation suites. */
export const RgateConfigFileSchema = Closed(
  {
    $schema: Type.Optional(Type.String()),
    suites: StringMap(SuiteSpecSchema, { propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' } }),
    /** what `rgate run` with no suite names runs */
    default_suites: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true })),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/rgate.config.json',
    title: 'rgate.config.json: named evaluation suites',
  },
);
export type RgateConfigFile = Static<typeof RgateConfigFileSchema>;
