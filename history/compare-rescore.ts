/**
 * A comparison's winners under other grades: each variant's kept ranking (replay 1, to the deepest
 * depth its ranking measures read) scored again by the run's own measure code with the grades
 * replaced, then the paired tests, Holm and the winner rule of `rgate compare` applied to the new
 * per-query values. Only the ranking measures are scored again; every other measure keeps the
 * session's values and tests, so a winner can change only through the grades. Two users: the pairs
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

/** Each variant's per-query values with its ranking measures scored under `qrelsOf`, in variant order. */
export function variantValuesUnder(
  session: CompareSession,
  queries: readonly QueryRecord[],
  qrelsOf: QrelsOf,
): PerQueryValues[] {
  const ranking = rankingMetricsOf(session);
  return session.variants.map((v) => {
    const kept = v.rankings!;
    const fresh = scoreKeptRankings(kept.queries, queries, qrelsOf, ranking, kept.relevance_level);
    const out: PerQueryValues = { ...v.per_query };
    for (const m of ranking) out[m] = Object.fromEntries(fresh.get(m) ?? []);
    return out;
  });
}

/** The session's winner rule on other per-query values of its ranking measures (one map per variant). */
export function winnersUnder(session: CompareSession, values: readonly PerQueryValues[]): MetricWinner[] {
  const ids = session.variants.map((v) => v.id);
  const ranking = new Set(rankingMetricsOf(session));
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

/** Per measure, the named winner under two sets of values, and whether it differs. */
export function winnerChanges(
  session: CompareSession,
  a: readonly PerQueryValues[],
  b: readonly PerQueryValues[],
): { metric: string; with_a: string | null; with_b: string | null; changes: boolean }[] {
  const wa = new Map(winnersUnder(session, a).map((w) => [w.metric, w.winner]));
  const wb = new Map(winnersUnder(session, b).map((w) => [w.metric, w.winner]));
  return rankingMetricsOf(session)
    .sort(compareCodeUnits)
    .map((metric) => {
      const with_a = wa.get(metric) ?? null;
      const with_b = wb.get(metric) ?? null;
      return { metric, with_a, with_b, changes: with_a !== with_b };
    });
}
