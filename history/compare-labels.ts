/**
 * Label effects in a comparison: a gate metric that moved between two variants while their rankings
 * did not (no top-1 flip, every other measure tied per query). Then the move comes from how the
 * answers are labelled (a selection mode such as hybrid_rrf counted as a semantic win), not from
 * what was retrieved, and a tuning session must not read it as a retrieval gain. Computed once, when
 * the session is built (or read back from a store that kept it without), so every format shows the
 * same list.
 */
import type { CompareSession, LabelEffect } from '../src/documents/index.js';

type Analysed = Pick<CompareSession, 'gate_metrics' | 'tests' | 'flips'>;

export function labelEffects(s: Analysed): LabelEffect[] {
  const gate = new Set(s.gate_metrics);
  const out: LabelEffect[] = [];
  for (const t of s.tests) {
    if (!gate.has(t.metric) || t.mean_delta === null || t.mean_delta === 0) continue;
    const flips = s.flips.find((f) => f.a === t.a && f.b === t.b);
    if (!flips || flips.queries.length > 0) continue; // a pair without flips computed says nothing
    const ranking = s.tests.filter((r) => r.a === t.a && r.b === t.b && !gate.has(r.metric));
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
