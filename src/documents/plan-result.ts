/** `rgate plan <suite> --json`: how many queries a measure needs to detect an effect, from a stored run. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const, OrNull, StringEnum } from './keywords.js';
import { DetectableMethodSchema, DetectableSchema } from './detectable.js';

export const PLAN_SCHEMA_VERSION = 'rgate-plan/1';

const count = Type.Integer({ minimum: 0 });

export const PlanResultSchema = Closed(
  {
    schema_version: Const(PLAN_SCHEMA_VERSION),
    suite: Type.String(),
    /** the run whose per-query values the plan reads */
    run_id: Type.String(),
    /** with --baseline: the other run; the plan is then for per-query differences between the two */
    baseline_run_id: Type.Optional(Type.String()),
    measure: Type.String(),
    /** rate: the exact binomial test of the measure's counts; mean: a t test of per-query values */
    kind: StringEnum(['rate', 'mean']),
    basis: StringEnum(['observed', 'paired']),
    /** what the run measured: the measure's units (a rate's denominator), its value and per-unit spread */
    observed: Closed({
      units: count,
      value: OrNull(Type.Number()),
      /** the n - 1 standard deviation of the per-unit values (per-query differences when paired) */
      sd: OrNull(Type.Number()),
      /** the run's queries, and the share of them the measure counts (units / queries) */
      queries: count,
    }),
    /** the rate planned at: the observed one, or --rate (e.g. the gate's threshold) */
    planned_at: OrNull(Type.Number()),
    /** the change to detect (--effect), in the measure's units */
    effect: Type.Number({ exclusiveMinimum: 0 }),
    direction: StringEnum(['drop', 'either']),
    power: Type.Number(),
    alpha: Type.Number(),
    method: DetectableMethodSchema,
    /** what the run's own units detect now (absent when nothing can be detected at them) */
    detectable_now: Type.Optional(DetectableSchema),
    /** the units the measure needs to count; null beyond 1,000,000 */
    units_needed: OrNull(count),
    /** units_needed at the run's share of counted queries: the queries the set needs */
    queries_needed: OrNull(count),
    /**
     * the independent check: the power at units_needed simulated with the seeded PRNG (draws of the
     * rate planned at less the effect, or resamples of the observed values shifted by it)
     */
    check: OrNull(Closed({ sims: count, seed: Type.Integer(), simulated_power: Type.Number() })),
    /** one sentence, what the terminal prints */
    summary: Type.String(),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/plan-result.json',
    title: 'rgate plan --json',
  },
);
export type PlanResult = Static<typeof PlanResultSchema>;
