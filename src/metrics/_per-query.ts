import type { PerQueryValues, QueryOutcome } from '../documents/index.js';
import { outcomeValues } from './gate/_query-values.js';

/**
 * The per-query value of each measure that decomposes per query, from a report's QueryOutcomes: the
 * query-level gate measures as src/metrics/gate/_query-values.ts reads them (top-1 useful over benchmark
 * queries whose top-1 is judged, probe expectation met, replay determinism), and every per-query
 * ranking measure (`ndcg_cut.5`, `recall.10`, ...).
 */
export function perQueryValues(
  queries: readonly QueryOutcome[],
  semanticWinModes: readonly string[],
): PerQueryValues {
  const out: PerQueryValues = {};
  const put = (metric: string, q: string, v: number) => ((out[metric] ??= {})[q] = v);
  for (const q of queries) {
    for (const [m, v] of Object.entries(outcomeValues(q, semanticWinModes))) put(m, q.query_id, v);
    for (const [m, v] of Object.entries(q.measures ?? {})) if (Number.isFinite(v)) put(m, q.query_id, v);
  }
  return out;
}
