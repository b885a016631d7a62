/**
 * JSON Schema of the run report (src/core/report.ts). The JSON renderer validates every report
 * before returning it, and `rgate report` validates a report file before re-rendering it, so a
 * hand-edited or truncated report is refused with the JSON path of the problem.
 */
import type { Report } from '../core/report.js';
import { REPORT_SCHEMA_VERSION } from '../core/report.js';
import { compileSchema } from './ajv.js';

const str = { type: 'string' } as const;
const nonNegInt = { type: 'integer', minimum: 0 } as const;
const nullableNum = { type: ['number', 'null'] } as const;
const strArr = { type: 'array', items: str } as const;
const pair = {
  type: 'array',
  prefixItems: [{ type: 'number' }, { type: 'number' }],
  minItems: 2,
  maxItems: 2,
} as const;
const nullablePair = {
  type: ['array', 'null'],
  prefixItems: [{ type: 'number' }, { type: 'number' }],
  minItems: 2,
  maxItems: 2,
} as const;
const selectionMode = {
  enum: ['semantic', 'fallback_exact_key', 'fallback_path_priority', 'no_match'],
} as const;
const profile = { enum: ['small', 'medium', 'large'] } as const;

const defs = {
  measureValue: {
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'numerator', 'denominator', 'rate', 'wilson95'],
        properties: {
          kind: { const: 'rate' },
          numerator: nonNegInt,
          denominator: nonNegInt,
          rate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
          wilson95: nullablePair,
        },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'n', 'mean', 'ci95'],
        properties: { kind: { const: 'mean' }, n: nonNegInt, mean: nullableNum, ci95: nullablePair },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'n', 'p50', 'p95', 'p99'],
        properties: {
          kind: { const: 'quantiles' },
          n: nonNegInt,
          p50: nullableNum,
          p95: nullableNum,
          p99: nullableNum,
        },
      },
    ],
  },
  artifacts: {
    type: 'object',
    additionalProperties: false,
    required: [
      'fixture',
      'artifact_id',
      'version',
      'corpus_id',
      'corpus_sha256',
      'query_set_id',
      'query_set_sha256',
      'config_id',
      'config_sha256',
    ],
    properties: {
      fixture: str,
      artifact_id: str,
      version: str,
      corpus_id: str,
      corpus_sha256: str,
      query_set_id: str,
      query_set_sha256: str,
      config_id: str,
      config_sha256: str,
    },
  },
  rule: {
    type: 'object',
    additionalProperties: false,
    required: ['metric', 'op', 'threshold', 'observed', 'status', 'reason'],
    properties: {
      metric: str,
      op: { enum: ['min', 'max'] },
      threshold: { type: 'number' },
      observed: nullableNum,
      numerator: nonNegInt,
      denominator: nonNegInt,
      n: nonNegInt,
      watch_band: pair,
      baseline: {
        type: 'object',
        additionalProperties: false,
        required: ['value', 'source', 'comparison'],
        properties: {
          value: nullableNum,
          source: str,
          comparison: { enum: ['uplift', 'not_below', 'delta'] },
        },
      },
      quantile: { enum: ['p50', 'p95', 'p99'] },
      per: { enum: ['profile'] },
      status: { enum: ['pass', 'watch', 'fail'] },
      reason: str,
    },
  },
  query: {
    type: 'object',
    additionalProperties: false,
    required: ['query_id', 'text', 'kind', 'expected', 'actual', 'top1', 'deterministic'],
    properties: {
      query_id: str,
      text: str,
      profile,
      kind: { enum: ['benchmark', 'probe'] },
      tags: strArr,
      expected: {
        type: 'object',
        additionalProperties: false,
        properties: {
          selection_mode: selectionMode,
          no_match: { type: 'boolean' },
          useful_ids: strArr,
          useful_paths: strArr,
        },
      },
      actual: {
        type: 'object',
        additionalProperties: false,
        required: ['ok', 'top_ids'],
        properties: {
          ok: { type: 'boolean' },
          error: str,
          selection_mode: selectionMode,
          selected_id: str,
          source_path: str,
          top_ids: strArr,
          fallback_stage: str,
        },
      },
      top1: { enum: ['useful', 'not_useful', 'unjudged', 'error', 'no_answer'] },
      expectation_met: { type: 'boolean' },
      deterministic: { type: 'boolean' },
      leaked_tags: strArr,
      measures: { type: 'object', additionalProperties: { type: 'number' } },
    },
  },
} as const;

export const reportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/report.json',
  title: 'rgate run report',
  type: 'object',
  additionalProperties: false,
  required: [
    'schema_version',
    'suite',
    'system',
    'artifacts',
    'settings',
    'gate',
    'metrics',
    'breakdowns',
    'failing_queries',
    'queries',
    'replay_proof',
    'environment',
    'timing',
  ],
  $defs: defs,
  properties: {
    schema_version: { const: REPORT_SCHEMA_VERSION },
    suite: str,
    system: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'kind', 'contract'],
      properties: { name: str, kind: str, contract: str },
    },
    artifacts: { $ref: '#/$defs/artifacts' },
    settings: {
      type: 'object',
      additionalProperties: false,
      required: ['replays', 'concurrency', 'seed', 'relevance_level', 'restart_between_replays'],
      properties: {
        replays: nonNegInt,
        concurrency: nonNegInt,
        seed: { type: 'integer' },
        relevance_level: { type: 'integer' },
        restart_between_replays: { type: 'boolean' },
      },
    },
    gate: {
      type: 'object',
      additionalProperties: false,
      required: ['gate_id', 'gate_version', 'verdict', 'rules', 'reasons', 'checklist'],
      properties: {
        gate_id: str,
        gate_version: str,
        verdict: { enum: ['PASS', 'WATCH', 'FAIL'] },
        rules: { type: 'array', items: { $ref: '#/$defs/rule' } },
        reasons: strArr,
        checklist: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'text', 'ok', 'evidence'],
            properties: { id: str, text: str, ok: { type: 'boolean' }, evidence: str },
          },
        },
      },
    },
    metrics: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'value', 'help'],
        properties: { id: str, value: { $ref: '#/$defs/measureValue' }, help: str },
      },
    },
    breakdowns: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['by', 'rows'],
        properties: {
          by: str,
          rows: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['key', 'metrics'],
              properties: {
                key: str,
                metrics: { type: 'object', additionalProperties: { $ref: '#/$defs/measureValue' } },
              },
            },
          },
        },
      },
    },
    failing_queries: { type: 'array', items: { $ref: '#/$defs/query' } },
    queries: { type: 'array', items: { $ref: '#/$defs/query' } },
    replay_proof: {
      type: 'object',
      additionalProperties: false,
      required: ['replays', 'seed', 'order_seeds', 'rollups', 'identical', 'per_query', 'divergent'],
      properties: {
        replays: nonNegInt,
        seed: { type: 'integer' },
        order_seeds: { type: 'array', items: { type: 'integer' } },
        rollups: strArr,
        identical: { type: 'boolean' },
        per_query: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['query_id', 'fingerprints'],
            properties: { query_id: str, fingerprints: strArr },
          },
        },
        divergent: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['query_id', 'field', 'groups'],
            properties: {
              query_id: str,
              field: str,
              groups: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['fingerprint', 'replays'],
                  properties: { fingerprint: str, replays: { type: 'array', items: nonNegInt } },
                },
              },
            },
          },
        },
      },
    },
    baseline: {
      type: 'object',
      additionalProperties: false,
      required: ['source'],
      properties: { run_id: str, source: str, artifacts: { $ref: '#/$defs/artifacts' }, reset_note: str },
    },
    environment: {
      type: 'object',
      additionalProperties: false,
      required: ['run_id', 'started_at', 'rgate_version', 'node', 'platform'],
      properties: { run_id: str, started_at: str, rgate_version: str, node: str, platform: str },
    },
    timing: {
      type: 'object',
      additionalProperties: false,
      required: ['wall_ms', 'latency_ms'],
      properties: {
        wall_ms: { type: 'number', minimum: 0 },
        latency_ms: { type: 'object', additionalProperties: { $ref: '#/$defs/measureValue' } },
        timing_rules: { type: 'array', items: { $ref: '#/$defs/rule' } },
      },
    },
  },
} as const;

export const validateReportSchema = compileSchema<Report>(reportSchema);
