import type { RankedItem } from '../../documents/index.js';

/**
 * A ranking that names one id twice breaks every contract: a TREC run may not hold a document twice
 * for one query (trec_eval and `rgate score` refuse it). The answer is still measured (violations
 * are measured, not fatal: issue 24) with each id at its first position, which is what the ranking
 * measures and the written TREC run keep; each later repeat is one violation at its JSON path.
 */
export function repeatedIdViolations(
  ranked: readonly Pick<RankedItem, 'id'>[],
  pathOf: (i: number) => string,
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  ranked.forEach((r, i) => {
    if (!seen.has(r.id)) seen.add(r.id);
    // one wording for every repeat, so the report counts them as one rule
    else out.push(`${pathOf(i)}: must not repeat an id ranked earlier (only its first position is scored)`);
  });
  return out;
}
