import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { PartialConfig } from '../core/config-defaults.js';
import { compileSchema } from './ajv.js';
import { configSchema } from './config.js';
import { RESPONSE_CONTRACTS } from './responses/index.js';

/** A system under test as rgate.config.json declares it (mirrors SystemSpec in src/systems/types.ts). */
export type RgateSystemSpec =
  | { type: 'builtin'; mode?: 'bm25' | 'context-load' | 'semantic' }
  | {
      type: 'command';
      argv: string[];
      worker?: boolean;
      contract: string;
      timeout_ms?: number;
      max_output_bytes?: number;
      env?: Record<string, string>;
      cwd?: string;
      launcher?: 'auto' | 'python' | 'perl' | 'node';
    }
  | {
      type: 'http';
      url: string;
      contract?: string;
      timeout_ms?: number;
      headers?: Record<string, string>;
      max_output_bytes?: number;
      filters?: Record<string, string>;
      overlay_policy?: 'include' | 'skip';
      transport?: 'direct' | 'gateway';
    };

/** One named suite: what to replay against which system, and how. */
export interface SuiteSpec {
  description?: string;
  /** a fixture set name under `fixtures/` or a path (relative to the config file) to a fixture folder */
  fixture: string;
  system: RgateSystemSpec;
  /** overrides on the fixture's config snapshot (deep-merged; the merged config is what gets hashed) */
  config?: PartialConfig;
  /** a gate id (`gates/<id>.gate.json`) or a path to a policy file; null = no gate (measures only) */
  gate?: string | null;
  /** default 5 */
  replays?: number;
  /** requests in flight; default 1 */
  concurrency?: number;
  /** restart the system (fresh process / engine) between replays; default false */
  restart_between_replays?: boolean;
  /** lowest grade that counts as relevant (trec_eval -l); default 1 */
  relevance_level?: number;
  /** trec_eval-style measure names (`map`, `P.30`, `ndcg_cut.10`, `recall.1000`) */
  ranking_measures?: string[];
  /** seed of the replay order shuffle; default 0 */
  seed?: number;
}

export interface RgateConfigFile {
  $schema?: string;
  suites: Record<string, SuiteSpec>;
  /** what `rgate run` with no suite names runs */
  default_suites?: string[];
}

const posInt = { type: 'integer', minimum: 1 } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const contract = { enum: [...RESPONSE_CONTRACTS] } as const;
// the fixture config schema, reused for the suite's overrides (without its $id: it is compiled already)
const { $id: _id, $schema: _schema, title: _title, ...configOverrides } = configSchema;

const systemSchema = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['builtin', 'command', 'http'] } },
  allOf: [
    {
      if: { properties: { type: { const: 'builtin' } } },
      then: {
        properties: { type: { const: 'builtin' }, mode: { enum: ['bm25', 'context-load', 'semantic'] } },
        additionalProperties: false,
      },
    },
    {
      if: { properties: { type: { const: 'command' } } },
      then: {
        required: ['argv', 'contract'],
        properties: {
          type: { const: 'command' },
          argv: { type: 'array', minItems: 1, items: { type: 'string' } },
          worker: { type: 'boolean' },
          contract,
          timeout_ms: posInt,
          max_output_bytes: posInt,
          env: stringMap,
          cwd: { type: 'string', minLength: 1 },
          launcher: { enum: ['auto', 'python', 'perl', 'node'] },
        },
        additionalProperties: false,
      },
    },
    {
      if: { properties: { type: { const: 'http' } } },
      then: {
        required: ['url'],
        properties: {
          type: { const: 'http' },
          url: { type: 'string', pattern: '^https?://' },
          contract,
          timeout_ms: posInt,
          max_output_bytes: posInt,
          headers: stringMap,
          filters: stringMap,
          overlay_policy: { enum: ['include', 'skip'] },
          transport: { enum: ['direct', 'gateway'] },
        },
        additionalProperties: false,
      },
    },
  ],
} as const;

const suiteSchema = {
  type: 'object',
  required: ['fixture', 'system'],
  properties: {
    description: { type: 'string' },
    fixture: { type: 'string', minLength: 1 },
    system: systemSchema,
    config: configOverrides,
    gate: { type: ['string', 'null'], minLength: 1 },
    replays: { type: 'integer', minimum: 1, maximum: 1000 },
    concurrency: { type: 'integer', minimum: 1, maximum: 256 },
    restart_between_replays: { type: 'boolean' },
    relevance_level: { type: 'integer', minimum: 0 },
    ranking_measures: {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*(\\.[0-9]+(,[0-9]+)*)?$' },
    },
    seed: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;

/** JSON Schema of rgate.config.json. */
export const rgateConfigSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/rgate.config.json',
  title: 'rgate.config.json: named evaluation suites',
  type: 'object',
  required: ['suites'],
  properties: {
    $schema: { type: 'string' },
    suites: {
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
      additionalProperties: suiteSchema,
    },
    default_suites: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
  },
  additionalProperties: false,
} as const;

export const validateRgateConfig: ValidateFunction<RgateConfigFile> =
  compileSchema<RgateConfigFile>(rgateConfigSchema);
