/**
 * Label effects in a comparison: a gate metric that moved between two variants while their rankings
 * did not (no top-1 flip, every ranking measure tied per query). Then the move comes from how the
 * answers are labelled (a selection mode such as hybrid_rrf counted as a semantic win), not from
 * what was retrieved, and a tuning session must not read it as a retrieval gain.
 */
import type { CompareSession } from '../../src/documents/index.js';
import { signed } from './shared.js';

export interface LabelEffect {
  metric: string;
  a: string;
  b: string;
  /** one sentence for every format */
  text: string;
}

export function labelEffects(s: CompareSession): LabelEffect[] {
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
      text:
        `${t.metric} moved ${signed(t.mean_delta)} (${t.a} -> ${t.b}) with no ranking change: ` +
        `0 top-1 flips, every other measure tied on every query (${ranking.map((r) => r.metric).join(', ')}). ` +
        'A label effect (how answers are labelled, e.g. their selection mode), not a retrieval difference.',
    });
  }
  return out;
}
