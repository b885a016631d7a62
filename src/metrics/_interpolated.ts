import type { JudgedRanking } from './_types.js';
import { lround } from './_double-params.js';

/**
 * Interpolated precision at recall fractions, as trec_eval computes it (m_iprec_at_recall.c,
 * m_11pt_avg.c): each fraction f becomes a count of relevant docs, lround(f * R); walking the ranking
 * from the bottom, int_prec = the best precision seen at or below the current rank, and a level is
 * given int_prec at the rank where its count of relevant docs is reached. Levels beyond the relevant
 * docs retrieved score 0; levels never reached in the walk (at most the first relevant doc) get the
 * final int_prec. Fractions are taken in the order given, as trec_eval does (it expects them sorted).
 */
export function interpolatedPrecision(
  j: JudgedRanking,
  fractions: readonly number[],
  level: number,
): number[] {
  const n = fractions.length;
  const out = new Array<number>(n).fill(0);
  const counts = fractions.map((f) => lround(f * j.numRel));
  let cut = n - 1;
  while (cut >= 0 && (counts[cut] as number) > j.numRelRet) cut--;
  // trec_eval scores a query missing from the run (-c) with one non-relevant doc: precision 0; a
  // ranking that is really empty (-J removed every doc, -M 0) is 0/0 there, NaN printed as -nan
  let intPrec = j.numRet ? j.numRelRet / j.numRet : j.standIn ? 0 : NaN;
  let relSoFar = j.numRelRet;
  for (let i = j.numRet; i > 0 && relSoFar > 0; i--) {
    const prec = relSoFar / i;
    if (intPrec < prec) intPrec = prec;
    if ((j.rels[i - 1] as number) >= level) {
      while (cut >= 0 && relSoFar === counts[cut]) out[cut--] = intPrec;
      relSoFar--;
    }
  }
  while (cut >= 0) out[cut--] = intPrec;
  return out;
}
