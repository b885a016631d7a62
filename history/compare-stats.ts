/**
 * Paired statistics of a tuning comparison. Every variant ran the same pinned queries, so each
 * metric is compared per query (variant B minus variant A on the same query): a seeded bootstrap
 * 95% interval of the mean delta, a paired randomization (sign-flip) test, and Holm's correction
 * over every test of the session. A winner is named only where the corrected test says so.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { deriveSeed } from '../src/core/prng.js';
import type {
  MetricEntry,
  MetricWinner,
  PairedSettings,
  PairedTest,
  QueryOutcome,
  TopFlip,
} from '../src/documents/index.js';
import { pValue } from '../gates/format.js';
import {
  holmAdjust,
  pairedBootstrapMeanCi,
  pairedRandomizationTest,
  pairedTTest,
} from '../src/stats/index.js';

/** Deltas smaller than this are ties (float noise in ranking measures). */
export const TIE_EPS = 1e-9;

import { meanDetectable, top1IdOf } from '../src/metrics/index.js';
export { perQueryValues } from '../src/metrics/index.js';

/**
 * Align two per-query maps on the queries both measured, in query id order (a total order);
 * `unpaired` are the queries only one of them measured, which the test leaves out.
 */
export function pairUp(
  a: Record<string, number>,
  b: Record<string, number>,
): { ids: string[]; x: number[]; y: number[]; unpaired: string[] } {
  const ids = Object.keys(a)
    .filter((q) => q in b)
    .sort(compareCodeUnits);
  const unpaired = [
    ...Object.keys(a).filter((q) => !(q in b)),
    ...Object.keys(b).filter((q) => !(q in a)),
  ].sort(compareCodeUnits);
  return { ids, x: ids.map((q) => a[q]!), y: ids.map((q) => b[q]!), unpaired };
}

/** The gate's denominator of a metric in a report: a rate's denominator, a mean's n; null when absent. */
export function gateDenominator(metrics: readonly MetricEntry[], metric: string): number | null {
  const v = metrics.find((m) => m.id === metric)?.value;
  if (!v) return null;
  return v.kind === 'rate' ? v.denominator : v.n;
}

/**
 * A test's n stated against the gate's denominators: "n=18 (gate denominator 18)" when they agree,
 * else why they differ: queries valued in one variant only, or a report that gives fewer per-query
 * values than its gate counted (written before per-query judgments were recorded).
 */
export function nBasis(
  n: number,
  gate: readonly [number | null, number | null],
  unpaired: readonly string[],
): string {
  const [ga, gb] = gate;
  const gateText =
    ga === null && gb === null
      ? 'no gate denominator for this measure'
      : ga === gb
        ? `gate denominator ${ga}`
        : `gate denominators ${ga ?? 'n/a'} and ${gb ?? 'n/a'}`;
  const why: string[] = [];
  if (unpaired.length > 0) {
    const shown =
      unpaired.slice(0, 10).join(', ') + (unpaired.length > 10 ? ` +${unpaired.length - 10} more` : '');
    const one = unpaired.length === 1;
    why.push(
      `${unpaired.length} ${one ? 'query has' : 'queries have'} no value for this measure in one variant: ${shown}`,
    );
  }
  // the gate counted queries neither report gives a value for
  const neither = ga !== null && ga === gb ? ga - n - unpaired.length : 0;
  if (neither > 0) {
    why.push(
      `${neither} counted ${neither === 1 ? 'query has' : 'queries have'} no value in either variant (reports written before per-query judgments were recorded)`,
    );
  }
  return why.length ? `n=${n} (${gateText}): ${why.join('; ')}` : `n=${n} (${gateText})`;
}

/** One paired test (before the Holm correction): a and b are per-query values in the same order. */
export function pairedTest(
  metric: string,
  aId: string,
  bId: string,
  x: readonly number[],
  y: readonly number[],
  s: PairedSettings,
  basis?: { gate_n: [number | null, number | null]; unpaired: string[] },
): PairedTest {
  const n = x.length;
  const base: PairedTest = {
    metric,
    a: aId,
    b: bId,
    n,
    ...(basis
      ? { gate_n: basis.gate_n, unpaired: basis.unpaired, n_basis: nBasis(n, basis.gate_n, basis.unpaired) }
      : {}),
    mean_a: null,
    mean_b: null,
    mean_delta: null,
    ci95: null,
    p_value: null,
    p_holm: null,
    significant: false,
    wins: 0,
    ties: 0,
    losses: 0,
  };
  if (n === 0) return base;
  const d = x.map((v, i) => y[i]! - v);
  let wins = 0;
  let ties = 0;
  let losses = 0;
  for (const v of d) {
    if (v > TIE_EPS) wins++;
    else if (v < -TIE_EPS) losses++;
    else ties++;
  }
  // each test draws from its own stream, so adding a metric does not change another's interval
  const seed = deriveSeed(s.seed, `${metric}\u0000${aId}\u0000${bId}`);
  const allTies = ties === n;
  return {
    ...base,
    mean_a: mean(x),
    mean_b: mean(y),
    mean_delta: mean(d),
    ci95: allTies ? [0, 0] : pairedBootstrapMeanCi(x, y, { seed, resamples: s.resamples }),
    ...(s.test === 't' ? tFields(x, y, allTies) : signFlipFields(x, y, allTies, seed, s.permutations)),
    wins,
    ties,
    losses,
    ...detectableField(d, s.alpha, seed),
  };
}

/** The smallest mean delta these queries could detect (two-sided, the session's alpha before Holm). */
function detectableField(d: readonly number[], alpha: number, seed: number): Partial<PairedTest> {
  const found = meanDetectable(d, 'either', 'paired', { alpha, seed: deriveSeed(seed, 'power') });
  return found ? { detectable: found } : {};
}

/** Student's t-test: p (null with one differing query: no variance to test against), t and df. */
function tFields(x: readonly number[], y: readonly number[], allTies: boolean): Partial<PairedTest> {
  const t = pairedTTest(x, y);
  return {
    p_value: allTies ? 1 : (t?.p ?? null),
    ...(t ? { t: Number.isFinite(t.t) ? t.t : null, df: t.df } : {}),
  };
}

/** The sign-flip test: p, and whether every sign assignment was counted. */
function signFlipFields(
  x: readonly number[],
  y: readonly number[],
  allTies: boolean,
  seed: number,
  permutations: number,
): Partial<PairedTest> {
  const test = allTies
    ? { p: 1, exact: true }
    : pairedRandomizationTest(x, y, { seed: deriveSeed(seed, 'perm'), permutations });
  return { p_value: test.p, p_exact: test.exact };
}

function mean(v: readonly number[]): number {
  let s = 0;
  for (const x of v) s += x;
  return s / v.length;
}

/**
 * Holm over the family of tests that could reject: every test with a p-value except those whose
 * pairs tie on every query. Such a test's smallest attainable p is 1, so, as in Tarone's (1990)
 * procedure for discrete tests, leaving it out keeps the family-wise error at alpha while it no
 * longer multiplies every other p (a run file compared with a re-ranking of it: 5 of 9 tests tied
 * and held MAP's Holm p at 0.0792 where 4 tests give 0.0352). Those get Holm p 1.
 * `significant` when the adjusted p is at most alpha.
 */
export function applyHolm(tests: PairedTest[], alpha: number): PairedTest[] {
  const idx = tests.flatMap((t, i) => (inHolmFamily(t) ? [i] : []));
  const adj = holmAdjust(idx.map((i) => tests[i]!.p_value!));
  const out = tests.map((t) => ({ ...t, ...(t.p_value === null ? {} : { p_holm: 1 }) }));
  idx.forEach((i, k) => {
    const t = out[i]!;
    t.p_holm = adj[k]!;
    t.significant = t.p_holm <= alpha && t.mean_delta !== null && Math.abs(t.mean_delta) > TIE_EPS;
  });
  return out;
}

/** A test Holm's family counts: one with a p-value whose pairs do not tie on every query. */
export function inHolmFamily(t: PairedTest): boolean {
  return t.p_value !== null && t.ties < t.n;
}

/**
 * Per metric: the best variant by mean, and whether it is distinguishable from every other one.
 * `means` are per variant id over a common query set; `tests` hold every pair once (either order).
 */
export function nameWinners(
  metrics: readonly string[],
  variantIds: readonly string[],
  tests: readonly PairedTest[],
  better: (metric: string) => 'higher' | 'lower',
  settings?: Pick<PairedSettings, 'alpha' | 'permutations'>,
): MetricWinner[] {
  const floor = settings ? permutationFloor(tests, settings) : null;
  return metrics.map((metric) => {
    const mine = tests.filter((t) => t.metric === metric);
    const meanOf = new Map<string, number>();
    for (const t of mine) {
      if (t.mean_a !== null && !meanOf.has(t.a)) meanOf.set(t.a, t.mean_a);
      if (t.mean_b !== null && !meanOf.has(t.b)) meanOf.set(t.b, t.mean_b);
    }
    const dir = better(metric) === 'higher' ? 1 : -1;
    const ranked = variantIds
      .filter((v) => meanOf.has(v))
      .sort((p, q) => dir * (meanOf.get(q)! - meanOf.get(p)!) || compareCodeUnits(p, q));
    const best = ranked[0];
    if (best === undefined) return { metric, best: null, winner: null, reason: 'not measured per query' };
    const second = ranked[1];
    if (second !== undefined && Math.abs(meanOf.get(best)! - meanOf.get(second)!) <= TIE_EPS) {
      return { metric, best: null, winner: null, reason: `${best} and ${second} tie on the mean` };
    }
    const unresolved: string[] = [];
    let floored = false;
    for (const other of ranked.slice(1)) {
      const t = mine.find((x) => (x.a === best && x.b === other) || (x.a === other && x.b === best));
      if (!t || !t.significant) {
        floored ||= floor !== null && t?.p_exact === false && t.p_value === floor.p;
        unresolved.push(
          `${other} (Holm p=${t?.p_holm === null || t?.p_holm === undefined ? 'n/a' : pValue(t.p_holm)})`,
        );
      }
    }
    if (unresolved.length) {
      return {
        metric,
        best,
        winner: null,
        reason:
          `${best} has the best mean but is not distinguishable from ${unresolved.join(', ')}` +
          (floored && floor ? `; ${floor.why}` : ''),
      };
    }
    return {
      metric,
      best,
      winner: best,
      reason:
        ranked.length > 1
          ? `${best} beats every other variant (Holm-corrected p <= alpha)`
          : `${best} is the only variant measured`,
    };
  });
}

/**
 * When a Monte Carlo p-value, however extreme, cannot pass Holm: its floor 1/(R+1) times the m
 * tests of the family exceeds alpha (a 13-point sweep has 546 tests: 546/10001 = 0.0546 > 0.05).
 * Null when the floor is below alpha or no test was estimated. Exact p-values have no floor.
 */
export function permutationFloor(
  tests: readonly PairedTest[],
  s: Pick<PairedSettings, 'alpha' | 'permutations'>,
): { p: number; why: string } | null {
  const m = tests.filter(inHolmFamily).length;
  const p = 1 / (s.permutations + 1);
  if (!tests.some((t) => t.p_exact === false) || m * p <= s.alpha) return null;
  const needed = Math.ceil(m / s.alpha);
  return {
    p,
    why:
      `with ${s.permutations} permutations a Monte Carlo p is at least 1/${s.permutations + 1}, which Holm over ` +
      `${m} tests raises to ${pValue(Math.min(1, m * p))} > alpha ${s.alpha}: no estimated test can be ` +
      `significant; rerun with --permutations ${needed} or more`,
  };
}

/** Queries whose top-1 record differs between two variants' reports. */
export function topFlips(a: readonly QueryOutcome[], b: readonly QueryOutcome[]): TopFlip[] {
  const bq = new Map(b.map((q) => [q.query_id, q]));
  const sel = (q: QueryOutcome) => top1IdOf(q) ?? null;
  const out: TopFlip[] = [];
  for (const qa of [...a].sort((x, y) => compareCodeUnits(x.query_id, y.query_id))) {
    const qb = bq.get(qa.query_id);
    if (!qb || sel(qa) === sel(qb)) continue;
    const direction =
      qa.top1 === 'useful' && qb.top1 !== 'useful'
        ? 'worse'
        : qa.top1 !== 'useful' && qb.top1 === 'useful'
          ? 'better'
          : 'changed';
    out.push({
      query_id: qa.query_id,
      text: qb.text,
      a: { selected: sel(qa), top1: qa.top1 },
      b: { selected: sel(qb), top1: qb.top1 },
      direction,
    });
  }
  return out;
}
