/**
 * Label effects in a comparison: a gate metric that moved between two variants while their rankings
 * did not (no top-1 flip, every other measure tied per query). Then the move comes from how the
 * answers are labelled (a selection mode such as hybrid_rrf counted as a semantic win), not from
 * what was retrieved, and a tuning session must not read it as a retrieval gain. Computed once, when
 * the session is built (or read back from a store that kept it without), so every format shows the
 * same list.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type { CompareSession, LabelEffect, MetricWinner, PairedTest } from '../src/documents/index.js';
import { pValue } from '../gates/format.js';
import { GATE_METRIC_IDS } from '../src/metrics/index.js';

type Analysed = Pick<CompareSession, 'gate_metrics' | 'tests' | 'flips'>;

export function labelEffects(s: Analysed): LabelEffect[] {
  const gate = new Set(s.gate_metrics);
  const out: LabelEffect[] = [];
  // a ranking measure (ndcg_cut.5 ...) is computed from the ranking: it cannot move by a label, and
  // it must tie for a gate measure's move to be one, whether a gate rule names it or not
  const labelled = (m: string) => GATE_METRIC_IDS.includes(m);
  for (const t of s.tests) {
    if (!gate.has(t.metric) || !labelled(t.metric) || t.mean_delta === null || t.mean_delta === 0) continue;
    const flips = s.flips.find((f) => f.a === t.a && f.b === t.b);
    if (!flips || flips.queries.length > 0) continue; // a pair without flips computed says nothing
    const ranking = s.tests.filter(
      (r) =>
        r.a === t.a && r.b === t.b && r.metric !== t.metric && (!gate.has(r.metric) || !labelled(r.metric)),
    );
    if (ranking.length === 0 || ranking.some((r) => r.wins > 0 || r.losses > 0)) continue;
    out.push({
      metric: t.metric,
      a: t.a,
      b: t.b,
      mean_delta: t.mean_delta,
      tied_measures: ranking.map((r) => r.metric),
    });
  }
  return out;
}

/**
 * The winners as a label effect leaves them: a metric whose best mean leads another variant only by
 * a label effect has no retrieval winner, however small the test's p (the test measured the
 * labelling). `best` stays; `winner` is null and the reason says which lead is the label's.
 * A winner already withheld is kept as it is, so a session read back twice is the same.
 */
export function withoutLabelWins(
  winners: readonly MetricWinner[],
  effects: readonly LabelEffect[],
  tests: readonly PairedTest[],
): MetricWinner[] {
  return winners.map((w) => {
    const best = w.best;
    if (best === null || w.label_effect) return w;
    const others = effects
      .filter((e) => e.metric === w.metric && (e.a === best || e.b === best))
      .map((e) => (e.a === best ? e.b : e.a))
      .filter((o, i, all) => all.indexOf(o) === i)
      .sort(compareCodeUnits);
    if (others.length === 0) return w;
    const significant = tests.filter(
      (t) =>
        t.metric === w.metric &&
        t.significant &&
        others.some((o) => (t.a === best && t.b === o) || (t.a === o && t.b === best)),
    );
    return {
      metric: w.metric,
      best,
      winner: null,
      reason:
        `${best}'s lead over ${others.join(', ')} is a label effect (0 top-1 ` +
        'flips, every ranking measure tied on every query): it comes from how the answers are ' +
        'labelled (e.g. their selection mode), not from what was retrieved' +
        (significant.length
          ? `; the test (Holm p=${significant.map((t) => pValue(t.p_holm)).join(', ')}) measures that labelling`
          : ''),
      label_effect: true,
    };
  });
}
