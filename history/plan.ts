/**
 * `rgate plan`: how many queries a measure needs to detect a given change, read from a stored run's
 * own figures (its rate, or the spread of its per-query values; with a baseline run, of the per-query
 * differences). Rates by the exact binomial test, means by the t quantiles; the answer is checked in
 * the same breath by simulating the test at that size with the seeded PRNG.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { POWER_DEFAULTS } from '../src/core/defaults.js';
import { RgateError } from '../src/core/errors.js';
import { createPrng, deriveSeed } from '../src/core/prng.js';
import {
  PLAN_SCHEMA_VERSION,
  type Detectable,
  type PlanResult,
  type Report,
} from '../src/documents/index.js';
import { meanDetectable, perQueryValues, semanticWinModesOf } from '../src/metrics/index.js';
import {
  binomialCritical,
  binomialDetectableDrop,
  binomialUnitsNeeded,
  meanSd,
  resampledPower,
  tUnitsNeeded,
  type PowerSettings,
} from '../src/stats/index.js';
import { num, pct } from '../gates/format.js';
import { pairUp } from './compare-stats.js';

export interface PlanOptions {
  measure: string;
  /** the change to detect, in the measure's units (a rate's as a fraction: 0.05 is 5 points) */
  effect: number;
  /** a rate measure: plan at this rate instead of the observed one (e.g. the gate's threshold) */
  rate?: number;
  power?: number;
  alpha?: number;
}

/** Simulated samples of the check; beyond CHECK_MAX_UNITS per sample the check is skipped (too slow). */
const SIMS = 2000;
const CHECK_MAX_UNITS = 20_000;

export interface PlannedRun {
  report: Report;
  run_id: string;
}

export function planEvidence(run: PlannedRun, o: PlanOptions, baseline?: PlannedRun): PlanResult {
  const alpha = o.alpha ?? POWER_DEFAULTS.alpha;
  const power = o.power ?? POWER_DEFAULTS.power;
  if (!(o.effect > 0))
    throw new RgateError('usage', `--effect ${o.effect}: must be above 0`, 'e.g. --effect 0.05');
  const entry = run.report.metrics.find((m) => m.id === o.measure);
  const values = perQueryValues(run.report.queries, semanticWinModesOf(run.report))[o.measure];
  if (!entry || entry.value.kind === 'quantiles') {
    const known = run.report.metrics.filter((m) => m.value.kind !== 'quantiles').map((m) => m.id);
    throw new RgateError(
      'usage',
      `run ${run.run_id} has no measure ${o.measure} to plan for`,
      `measures it has: ${known.join(', ')}`,
    );
  }
  const queries = run.report.queries.length;
  const base = {
    suite: run.report.suite,
    run_id: run.run_id,
    measure: o.measure,
    effect: o.effect,
    power,
    alpha,
  };
  const seed = deriveSeed(POWER_DEFAULTS.seed, `plan\u0000${o.measure}`);
  if (baseline) return pairedPlan(run, baseline, o, base, queries, seed);
  if (entry.value.kind === 'rate') {
    const { numerator, denominator } = entry.value;
    if (o.rate !== undefined && !(o.rate > 0 && o.rate <= 1))
      throw new RgateError('usage', `--rate ${o.rate}: a rate is in (0, 1]`, 'e.g. --rate 0.8');
    const at = o.rate ?? (denominator > 0 ? numerator / denominator : null);
    if (at === null)
      throw new RgateError(
        'usage',
        `${o.measure} counted nothing in run ${run.run_id}`,
        'plan from a run that measured it',
      );
    if (o.effect >= at)
      throw new RgateError(
        'usage',
        `--effect ${o.effect}: a drop from ${pct(at)} must leave a rate above 0`,
        at > 0
          ? `use an effect below ${num(at)}`
          : 'a rate of 0 cannot drop: plan at another rate with --rate <p>',
      );
    const now = binomialDetectableDrop(denominator, at, alpha, power);
    const units = binomialUnitsNeeded(at, o.effect, alpha, power);
    const doc: PlanResult = {
      schema_version: PLAN_SCHEMA_VERSION,
      ...base,
      kind: 'rate',
      basis: 'observed',
      observed: {
        units: denominator,
        value: denominator > 0 ? numerator / denominator : null,
        sd: null,
        queries,
      },
      planned_at: at,
      direction: 'drop',
      method: 'binomial_exact',
      ...(now !== null && now > 0
        ? { detectable_now: detectable(now, 'drop', denominator, power, alpha, 'binomial_exact', 'observed') }
        : {}),
      units_needed: units,
      queries_needed: scaled(units, denominator, queries),
      check: units !== null && units <= CHECK_MAX_UNITS ? rateCheck(units, at, o.effect, alpha, seed) : null,
      summary: '',
    };
    return { ...doc, summary: summaryOf(doc, (x) => `${(x * 100).toFixed(1)} points`) };
  }
  if (!values || Object.keys(values).length < 2)
    throw new RgateError(
      'usage',
      `run ${run.run_id} has fewer than 2 per-query values of ${o.measure}`,
      'plan from a run that measured it per query',
    );
  const ordered = Object.keys(values)
    .sort(compareCodeUnits)
    .map((q) => values[q]!);
  return meanPlan(ordered, 'drop', 'observed', o, base, queries, seed, entry.value.mean);
}

type PlanBase = Pick<PlanResult, 'suite' | 'run_id' | 'measure' | 'effect' | 'power' | 'alpha'>;

function pairedPlan(
  run: PlannedRun,
  baseline: PlannedRun,
  o: PlanOptions,
  base: PlanBase,
  queries: number,
  seed: number,
): PlanResult {
  const cur = perQueryValues(run.report.queries, semanticWinModesOf(run.report))[o.measure] ?? {};
  const was = perQueryValues(baseline.report.queries, semanticWinModesOf(baseline.report))[o.measure] ?? {};
  const { x, y } = pairUp(was, cur);
  if (x.length < 2)
    throw new RgateError(
      'usage',
      `runs ${baseline.run_id} and ${run.run_id} share fewer than 2 per-query values of ${o.measure}`,
      'pair two runs of the same suite that both measured it',
    );
  const diffs = y.map((v, i) => v - x[i]!);
  const doc = meanPlan(diffs, 'either', 'paired', o, { ...base }, queries, seed, null);
  return { ...doc, baseline_run_id: baseline.run_id };
}

function meanPlan(
  values: number[],
  direction: 'drop' | 'either',
  basis: 'observed' | 'paired',
  o: PlanOptions,
  base: PlanBase,
  queries: number,
  seed: number,
  value: number | null,
): PlanResult {
  const { mean, sd } = meanSd(values);
  if (sd === 0)
    throw new RgateError(
      'usage',
      `every per-query ${basis === 'paired' ? 'difference' : 'value'} of ${o.measure} is ${num(values[0] ?? 0)}: no spread to plan from`,
      basis === 'paired'
        ? 'pair two runs whose per-query values differ'
        : 'plan from a run whose queries differ on it',
    );
  const s: PowerSettings = { alpha: base.alpha, power: base.power, sided: direction === 'either' ? 2 : 1 };
  const units = tUnitsNeeded(sd, o.effect, s);
  const now = meanDetectable(values, direction, basis, { alpha: base.alpha, power: base.power, seed });
  // the resampled test looks for a rise: a drop is a rise of the negated values
  const oriented = direction === 'drop' ? values.map((v) => -v) : values;
  const doc: PlanResult = {
    schema_version: PLAN_SCHEMA_VERSION,
    ...base,
    kind: 'mean',
    basis,
    observed: { units: values.length, value: value ?? mean, sd, queries },
    planned_at: null,
    direction,
    method: 't_quantiles',
    ...(now ? { detectable_now: now } : {}),
    units_needed: units,
    queries_needed: scaled(units, values.length, queries),
    check:
      units !== null && units <= CHECK_MAX_UNITS
        ? {
            sims: SIMS,
            seed,
            simulated_power: resampledPower(oriented, units, o.effect, { ...s, seed, sims: SIMS }),
          }
        : null,
    summary: '',
  };
  return { ...doc, summary: summaryOf(doc, num) };
}

/** units_needed at the run's share of counted queries (units of queries), rounded up. */
function scaled(units: number | null, counted: number, queries: number): number | null {
  if (units === null) return null;
  if (counted <= 0 || queries <= 0) return units;
  return Math.ceil((units * queries) / counted - 1e-9);
}

/** Power of the exact test at n, simulated: n draws at p0 - effect, a rejection when at most the critical count succeed. */
function rateCheck(n: number, p0: number, effect: number, alpha: number, seed: number): PlanResult['check'] {
  const c = binomialCritical(n, p0, alpha);
  const prng = createPrng(seed);
  const p1 = p0 - effect;
  let hits = 0;
  for (let k = 0; k < SIMS; k++) {
    let x = 0;
    for (let i = 0; i < n; i++) if (prng.next() < p1) x++;
    if (x <= c) hits++;
  }
  return { sims: SIMS, seed, simulated_power: hits / SIMS };
}

function detectable(
  effect: number,
  direction: Detectable['direction'],
  n: number,
  power: number,
  alpha: number,
  method: Detectable['method'],
  basis: Detectable['basis'],
): Detectable {
  return { effect, direction, n, power, alpha, method, basis };
}

function summaryOf(d: PlanResult, size: (x: number) => string): string {
  const change =
    d.direction === 'drop' ? `a drop of ${size(d.effect)}` : `a change of ${size(d.effect)} either way`;
  const at =
    d.kind === 'rate' && d.planned_at !== null
      ? ` at ${pct(d.planned_at)}${d.observed.value !== null && d.planned_at !== d.observed.value ? ` (observed ${pct(d.observed.value)})` : ''}`
      : d.basis === 'paired'
        ? ` (per-query differences, sd ${num(d.observed.sd ?? 0)})`
        : ` (sd ${num(d.observed.sd ?? 0)} per query)`;
  const method = d.method === 'binomial_exact' ? 'exact binomial test' : 't quantiles';
  const test = `${d.direction === 'drop' ? 'one-sided' : 'two-sided'} ${method}, alpha ${d.alpha}`;
  const needed =
    d.units_needed === null
      ? 'more than 1,000,000 counted units'
      : `${d.units_needed} counted units, about ${d.queries_needed} queries at this run's share (${d.observed.units} of ${d.observed.queries} counted)`;
  const now = d.detectable_now
    ? `; the run's ${d.observed.units} detect ${d.direction === 'drop' ? 'a drop' : 'a change'} of ${size(d.detectable_now.effect)}`
    : `; the run's ${d.observed.units} detect no such change`;
  const check = d.check
    ? `; simulated power at that size ${d.check.simulated_power.toFixed(3)} (${d.check.sims} seeded draws)`
    : '';
  return `${d.measure}${at}: ${change} needs ${needed} for ${Math.round(d.power * 100)}% power (${test})${now}${check}`;
}
