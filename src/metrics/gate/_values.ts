/**
 * Value builders for gate measures: rates with Wilson intervals, means with bootstrap intervals; the
 * per-query builders every gate measure uses; and `aggregate`, the one place a measure's per-query
 * values become its reported value.
 */
import { deriveSeed } from '../../core/prng.js';
import type {
  MeanValue,
  MeasureValue,
  Observation,
  QuantileValue,
  QueryRecord,
  RateValue,
} from '../../documents/index.js';
import { bootstrapMeanCi } from '../../stats/bootstrap.js';
import { wilsonInterval } from '../../stats/wilson-interval.js';
import type { GateContext } from './_context.js';
import type { GateValues, QueryCounts } from './_types.js';

/** A rate that shows what it counted; denominator 0 is "not measured" (rate and interval null). */
export function rate(numerator: number, denominator: number): RateValue {
  if (denominator === 0) return { kind: 'rate', numerator, denominator, rate: null, wilson95: null };
  return {
    kind: 'rate',
    numerator,
    denominator,
    rate: numerator / denominator,
    wilson95: wilsonInterval(numerator, denominator),
  };
}

/**
 * Mean over n units with a seeded bootstrap 95% interval; n = 0 is "not measured". `interval: false`
 * leaves ci95 null where another value's interval already applies (a breakdown's only row).
 */
export function mean(
  values: readonly number[],
  seed: number,
  precomputedMean?: number,
  interval = true,
): MeanValue {
  const n = values.length;
  if (n === 0) return { kind: 'mean', n: 0, mean: null, ci95: null };
  let s = 0;
  for (const v of values) s += v;
  const ci95 = interval ? bootstrapMeanCi(values, { seed }) : null;
  return { kind: 'mean', n, mean: precomputedMean ?? s / n, ci95 };
}

/** p50/p95/p99 by the nearest-rank method (the smallest sample with at least p of the data at or below). */
export function quantiles(samples: readonly number[]): QuantileValue {
  const n = samples.length;
  if (n === 0) return { kind: 'quantiles', n: 0, p50: null, p95: null, p99: null };
  const s = Float64Array.from(samples).sort();
  const at = (p: number): number => s[Math.max(0, Math.ceil(p * n) - 1)] as number;
  return { kind: 'quantiles', n, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** A rate over queries: `value` says 1 (counted, in the numerator), 0 (counted, not in it) or null (not counted). */
export function perQueryRate(
  id: string,
  ctx: GateContext,
  value: (q: QueryRecord) => boolean | null,
): GateValues {
  const perQuery = new Map<string, 0 | 1 | null>();
  for (const q of ctx.queries) {
    // a query never asked (a run that stopped early) is evidence of nothing
    const v = ctx.attempted(q) ? value(q) : null;
    perQuery.set(q.query_id, v === null ? null : v ? 1 : 0);
  }
  return { id, kind: 'query_rate', perQuery };
}

/** A rate over units a query owns (its requests, its ranking positions): the query's own counts. */
export function perQueryCounts(
  id: string,
  ctx: GateContext,
  counts: (q: QueryRecord) => QueryCounts,
): GateValues {
  const perQuery = new Map<string, QueryCounts>();
  for (const q of ctx.queries) perQuery.set(q.query_id, counts(q));
  return { id, kind: 'counts', perQuery };
}

/**
 * A rate over requests, all replays: per query, its requests `counted` (default: every one, errored
 * included) and, of those, the ones that `pass`.
 */
export function perRequestRate(
  id: string,
  ctx: GateContext,
  pass: (o: Observation) => boolean,
  counted: (o: Observation) => boolean = () => true,
): GateValues {
  return perQueryCounts(id, ctx, (q) => {
    let numerator = 0;
    let denominator = 0;
    for (const o of ctx.all(q)) {
      if (!counted(o)) continue;
      denominator++;
      if (pass(o)) numerator++;
    }
    return { numerator, denominator };
  });
}

/** A mean over requests: per query, the samples its requests give (replay order). */
export function perRequestMean(
  id: string,
  ctx: GateContext,
  sample: (o: Observation) => number | undefined,
): GateValues {
  const perQuery = new Map<string, number[]>();
  for (const q of ctx.queries) {
    const values: number[] = [];
    for (const o of ctx.all(q)) {
      const v = sample(o);
      if (v !== undefined) values.push(v);
    }
    perQuery.set(q.query_id, values);
  }
  return { id, kind: 'mean', perQuery };
}

/** One query's part of a rate as counts: a rate over queries gives 1/1, 0/1, or 0/0 when not counted. */
function countsOf(v: 0 | 1 | null | QueryCounts | undefined): QueryCounts {
  if (v === undefined || v === null) return { numerator: 0, denominator: 0 };
  if (typeof v === 'number') return { numerator: v, denominator: 1 };
  return v;
}

/**
 * The reported value of a measure: the sum of its per-query parts (a mean over their samples, with
 * the bootstrap seeded by the run seed and the metric id). `only` restricts it to some queries, as a
 * breakdown row does; the query-set order is kept either way, so the bootstrap sees the same order.
 */
export function aggregate(v: GateValues, seed: number, only?: ReadonlySet<string>): MeasureValue {
  const keep = (qid: string) => only === undefined || only.has(qid);
  if (v.kind === 'mean') {
    const samples: number[] = [];
    for (const [qid, values] of v.perQuery) if (keep(qid)) samples.push(...values);
    return mean(samples, deriveSeed(seed, v.id));
  }
  let numerator = 0;
  let denominator = 0;
  for (const [qid, part] of v.perQuery) {
    if (!keep(qid)) continue;
    const c = countsOf(part);
    numerator += c.numerator;
    denominator += c.denominator;
  }
  return rate(numerator, denominator);
}
