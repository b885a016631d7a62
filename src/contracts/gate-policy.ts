/**
 * Gate policy files (`gates/<id>.gate.json`): the JSON Schema and its TypeScript shape.
 * The schema checks structure only; whether a rule's metric id exists is checked by the policy loader
 * in gates/ (contracts may not import src/metrics), which reports the JSON path of an unknown id.
 */
import { compileSchema } from './ajv.js';

export type RuleSeverity = 'error' | 'warn';
export type BaselineComparison = 'uplift' | 'not_below';
export type QuantileName = 'p50' | 'p95' | 'p99';

/** The QA checklist items the evaluator knows how to check (seed 001 "QA Checklist"). */
export const CHECKLIST_ITEM_IDS = [
  'pinned_artifacts',
  'thresholds_as_defined',
  'fallback_ordering_and_determinism',
  'selection_fields_on_every_response',
] as const;
export type ChecklistItemId = (typeof CHECKLIST_ITEM_IDS)[number];

export interface GateRule {
  metric: string;
  /** observed must be >= min (exactly one of min / max) */
  min?: number;
  /** observed must be <= max */
  max?: number;
  /** inclusive [lo, hi]: a met rule whose observed value sits in the band is WATCH, not PASS */
  watch_band?: [number, number];
  /** rates: smallest denominator that counts as evidence; means and quantiles: smallest n */
  min_denominator?: number;
  /** smallest replay count (input.replays) that counts as evidence, e.g. replay determinism over >= 30 */
  min_replays?: number;
  /** compare against a baseline report: relative uplift (cur - base) / base, or delta cur - base */
  vs_baseline?: BaselineComparison;
  /** which order statistic of a quantile measure (latency) is compared */
  quantile?: QuantileName;
  /** evaluate once per profile (latency): every profile must meet the rule */
  per?: 'profile';
  /** 'warn': a miss is WATCH, never FAIL (ESLint-style levels); default 'error' */
  severity?: RuleSeverity;
  /** one line shown next to the rule in reports */
  description?: string;
}

export interface GateChecklistEntry {
  id: ChecklistItemId;
  severity?: RuleSeverity;
}

export interface GatePolicy {
  gate_id: string;
  version: string;
  description: string;
  /** fewer queries than this is FAIL "insufficient evidence" */
  min_queries: number;
  rules: GateRule[];
  checklist?: GateChecklistEntry[];
  /** where the thresholds come from, e.g. the seed document */
  source?: string;
}

const nonNegInt = { type: 'integer', minimum: 0 } as const;

export const gatePolicySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/gate-policy.json',
  title: 'rgate gate policy',
  type: 'object',
  additionalProperties: false,
  required: ['gate_id', 'version', 'description', 'min_queries', 'rules'],
  properties: {
    $schema: { type: 'string' },
    gate_id: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]*$' },
    version: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    source: { type: 'string' },
    min_queries: nonNegInt,
    rules: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['metric'],
        // exactly one of min / max
        oneOf: [
          { required: ['min'], properties: { min: true } },
          { required: ['max'], properties: { max: true } },
        ],
        properties: {
          metric: { type: 'string', minLength: 1 },
          min: { type: 'number' },
          max: { type: 'number' },
          watch_band: {
            type: 'array',
            prefixItems: [{ type: 'number' }, { type: 'number' }],
            minItems: 2,
            maxItems: 2,
          },
          min_denominator: nonNegInt,
          min_replays: nonNegInt,
          vs_baseline: { enum: ['uplift', 'not_below'] },
          quantile: { enum: ['p50', 'p95', 'p99'] },
          per: { enum: ['profile'] },
          severity: { enum: ['error', 'warn'] },
          description: { type: 'string' },
        },
      },
    },
    checklist: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id'],
        properties: {
          id: { enum: [...CHECKLIST_ITEM_IDS] },
          severity: { enum: ['error', 'warn'] },
        },
      },
    },
  },
} as const;

export const validateGatePolicySchema = compileSchema<GatePolicy>(gatePolicySchema);
