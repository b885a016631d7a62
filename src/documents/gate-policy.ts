/**
 * Gate policy files (`gates/<id>.gate.json`). The schema states structure only; whether a rule's
 * metric id exists is checked by the policy loader in gates/, which knows the metrics registry.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Pair, StringEnum } from './keywords.js';
import { QuantileNameSchema } from './measure-value.js';

export const RuleSeveritySchema = StringEnum(['error', 'warn']);
export type RuleSeverity = Static<typeof RuleSeveritySchema>;

export const BaselineComparisonSchema = StringEnum(['uplift', 'not_below']);
export type BaselineComparison = Static<typeof BaselineComparisonSchema>;

/** The QA checklist items the evaluator knows how to check (seed 001 "QA Checklist"). */
export const CHECKLIST_ITEM_IDS = [
  'pinned_artifacts',
  'thresholds_as_defined',
  'fallback_ordering_and_determinism',
  'selection_fields_on_every_response',
] as const;
export const ChecklistItemIdSchema = StringEnum(CHECKLIST_ITEM_IDS);
export type ChecklistItemId = Static<typeof ChecklistItemIdSchema>;

const count = Type.Integer({ minimum: 0 });

/**
 * A rule against the base branch's run (issue 35): the run's measure may not drop by more than
 * `max_drop` (in the measure's own units, its mean over the queries both runs measured) below the
 * base run's, and, with `significant` (the default), the paired test of the vs-base page must call
 * the drop significant at `alpha` (default: the compare default, 0.05). Only the server, which holds
 * the base run, can judge it: a local run reports it not evaluated.
 */
export const VsBaseRuleSchema = Closed({
  max_drop: Type.Number({ minimum: 0 }),
  significant: Type.Optional(Type.Boolean()),
  alpha: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })),
});
export type VsBaseRule = Static<typeof VsBaseRuleSchema>;

export const GateRuleSchema = Closed(
  {
    metric: Type.String({ minLength: 1 }),
    /** observed must be >= min (exactly one of min / max) */
    min: Type.Optional(Type.Number()),
    /** observed must be <= max */
    max: Type.Optional(Type.Number()),
    /** inclusive [lo, hi]: a met rule whose observed value sits in the band is WATCH, not PASS */
    watch_band: Type.Optional(Pair(Type.Number())),
    /** rates: smallest denominator that counts as evidence; means and quantiles: smallest n */
    min_denominator: Type.Optional(count),
    /** smallest replay count (input.replays) that counts as evidence, e.g. replay determinism over >= 30 */
    min_replays: Type.Optional(count),
    /** compare against a baseline report: relative uplift (cur - base) / base, or delta cur - base */
    vs_baseline: Type.Optional(BaselineComparisonSchema),
    /** judged against the base branch's run by the server on upload (instead of min / max) */
    vs_base: Type.Optional(VsBaseRuleSchema),
    /** which order statistic of a quantile measure (latency) is compared */
    quantile: Type.Optional(QuantileNameSchema),
    /** evaluate once per profile (latency): every profile must meet the rule */
    per: Type.Optional(StringEnum(['profile'])),
    /** 'warn': a miss is WATCH, never FAIL (ESLint-style levels); default 'error' */
    severity: Type.Optional(RuleSeveritySchema),
    /** one line shown next to the rule in reports */
    description: Type.Optional(Type.String()),
  },
  {
    // exactly one of min / max / vs_base
    oneOf: [
      { required: ['min'], properties: { min: true } },
      { required: ['max'], properties: { max: true } },
      { required: ['vs_base'], properties: { vs_base: true } },
    ],
  },
);
export type GateRule = Static<typeof GateRuleSchema>;

export const GateChecklistEntrySchema = Closed({
  id: ChecklistItemIdSchema,
  severity: Type.Optional(RuleSeveritySchema),
});
export type GateChecklistEntry = Static<typeof GateChecklistEntrySchema>;

export const GatePolicySchema = Closed(
  {
    $schema: Type.Optional(Type.String()),
    gate_id: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$' }),
    version: Type.String({ minLength: 1 }),
    description: Type.String(),
    /** where the thresholds come from, e.g. the seed document */
    source: Type.Optional(Type.String()),
    /** fewer queries than this is FAIL "insufficient evidence" */
    min_queries: count,
    rules: Type.Array(GateRuleSchema, { minItems: 1 }),
    checklist: Type.Optional(Type.Array(GateChecklistEntrySchema)),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/gate-policy.json',
    title: 'rgate gate policy',
  },
);
export type GatePolicy = Static<typeof GatePolicySchema>;
