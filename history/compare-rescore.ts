/**
 * A comparison's winners under other grades: each variant's kept ranking (replay 1, to the deepest
 * depth its ranking measures read) scored again by the run's own measure code with the grades
 * replaced, then the paired tests, Holm and the winner rule of `rgate compare` applied to the new
 * per-query values. The ranking measures are scored again, and the top-1 rates where the session
 * keeps what decides them (compare-top1.ts); every other measure keeps the session's values and
 * tests, so a winner can change only through the grades. Two users: the pairs
 * whose grade could flip a winner (compare-winner-holes.ts) and `rgate label agree --session`.
 */
import type {
  CompareSession,
  MetricWinner,
  PairedTest,
  PerQueryValues,
  QueryRecord,
} from '../src/documents/index.js';
import { parseRankingMetricId, scoreKeptRankings, type QrelsOf } from '../src/metrics/index.js';
import { RgateError } from '../src/core/errors.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { applyHolm, nameWinners, pairUp, pairedTest } from './compare-stats.js';
import { labelEffects, withoutLabelWins } from './compare-labels.js';
import { top1MetricsOf, top1ValuesUnder } from './compare-top1.js';

/** The compared measures the grades decide here: the ranking measures. */
export function rankingMetricsOf(session: CompareSession): string[] {
  return session.metrics.map((m) => m.id).filter((m) => parseRankingMetricId(m) !== undefined);
}

/** Whether every variant kept its ranking (sessions written before they did, did not). */
export function keepsRankings(session: CompareSession): boolean {
  return session.variants.every((v) => v.rankings !== undefined);
}

/** Refuse a session that kept no rankings: it cannot be scored again, and no figure is better than a wrong one. */
export function requireRankings(session: CompareSession, what: string): void {
  if (keepsRankings(session)) return;
  throw new RgateError(
    'usage',
    `${what}: session ${session.environment.session_id} predates compare sessions keeping each variant's scored ranking, so its measures cannot be scored again`,
    `re-run the comparison (rgate compare ${session.suite} ...) and use the new session`,
  );
}

/**
 * Each variant's per-query values under each of `fillings`, in variant order: its ranking measures
 * scored again from its kept ranking, its top-1 rates re-counted from its kept top-1 (compare-top1.ts)
 * where the session holds what they need; `rescored` lists the measures scored again, `not_rescored`
 * the top-1 rates that keep the session's values, each with what it needs.
 */
export function valuesUnder(
  session: CompareSession,
  queries: readonly QueryRecord[],
  fillings: readonly QrelsOf[],
): { values: PerQueryValues[][]; rescored: string[]; not_rescored: { metric: string; needs: string }[] } {
  const ranking = rankingMetricsOf(session);
  const values = fillings.map((qrelsOf) =>
    session.variants.map((v) => {
      const kept = v.rankings!;
      const fresh = scoreKeptRankings(kept.queries, queries, qrelsOf, ranking, kept.relevance_level);
      const out: PerQueryValues = { ...v.per_query };
      for (const m of ranking) out[m] = Object.fromEntries(fresh.get(m) ?? []);
      return out;
    }),
  );
  const rescored = [...ranking];
  const not_rescored: { metric: string; needs: string }[] = [];
  for (const metric of top1MetricsOf(session)) {
    const top1 = top1ValuesUnder(session, metric, queries, fillings);
    if ('needs' in top1) {
      not_rescored.push({ metric, needs: top1.needs });
      continue;
    }
    rescored.push(metric);
    top1.values.forEach((perVariant, f) => perVariant.forEach((x, i) => (values[f]![i]![metric] = x)));
  }
  return { values, rescored, not_rescored };
}

/**
 * The session's winner rule on other per-query values of the `rescored` measures (one map per
 * variant); every other measure keeps the session's tests.
 */
export function winnersUnder(
  session: CompareSession,
  values: readonly PerQueryValues[],
  rescored: readonly string[],
): MetricWinner[] {
  const ids = session.variants.map((v) => v.id);
  const ranking = new Set(rescored);
  const metrics = session.metrics.map((m) => m.id);
  // a test of a measure the grades do not decide is the session's own (same values, same seed)
  let tests: PairedTest[] = session.tests
    .filter((t) => !ranking.has(t.metric))
    .map((t) => ({ ...t, p_holm: null, significant: false }));
  for (const m of metrics) {
    if (!ranking.has(m)) continue;
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const { x, y } = pairUp(values[i]![m] ?? {}, values[j]![m] ?? {});
        tests.push(pairedTest(m, ids[i]!, ids[j]!, x, y, session.settings));
      }
  }
  tests = applyHolm(tests, session.settings.alpha);
  const better = new Map(session.metrics.map((m) => [m.id, m.better]));
  const effects = labelEffects({ gate_metrics: session.gate_metrics, tests, flips: session.flips });
  return withoutLabelWins(
    nameWinners(
      metrics,
      ids,
      tests,
      (m) => (better.get(m) === 'lower' ? 'lower' : 'higher'),
      session.settings,
    ),
    effects,
    tests,
  );
}

/** Per measure scored again, the named winner under two sets of values, and whether it differs. */
export function winnerChanges(
  session: CompareSession,
  a: readonly PerQueryValues[],
  b: readonly PerQueryValues[],
  rescored: readonly string[],
): { metric: string; with_a: string | null; with_b: string | null; changes: boolean }[] {
  const wa = new Map(winnersUnder(session, a, rescored).map((w) => [w.metric, w.winner]));
  const wb = new Map(winnersUnder(session, b, rescored).map((w) => [w.metric, w.winner]));
  return [...rescored].sort(compareCodeUnits).map((metric) => {
    const with_a = wa.get(metric) ?? null;
    const with_b = wb.get(metric) ?? null;
    return { metric, with_a, with_b, changes: with_a !== with_b };
  });
}
