import { getGain, IdealGains, NO_GAINS, parseGainParams, setupGains, type GainParams } from './_gains.js';
import type { JudgedRanking, RankingMeasure } from './_types.js';

/** nDCG over the whole ranking with an optional gain table (trec_eval m_ndcg.c). */
export const ndcg: RankingMeasure<GainParams> = {
  id: 'ndcg',
  kind: 'float',
  help: `Normalized Discounted Cumulative Gain over the whole ranking (Jarvelin & Kekalainen, ACM TOIS
20(4) 2002, as trec_eval computes it).
Per query: DCG = sum over ranks i of gain(grade_i) / log2(i + 1); nDCG = DCG / IDCG, IDCG = the DCG of
the judged docs sorted by gain. Gains default to the grade; -m ndcg.1=3,2=9 sets grade 1 -> 3 and
grade 2 -> 9 (other grades keep gain = grade; gains may be 0 or negative). Not affected by -l.
Summary: mean over queries. Source: trec_eval m_ndcg.c, gain_init.c.`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('ndcg', text),
  names: (p) => [p.text ? `ndcg_${p.text}` : 'ndcg'],
  perQuery(j, params) {
    const { resultsDcg, idealDcg } = dcgSums(j, params);
    return [idealDcg > 0.0 ? resultsDcg / idealDcg : 0];
  },
  aggregate: 'mean',
  printPerQuery: true,
};

/**
 * The ranking's DCG and the ideal DCG over the whole ranking (trec_eval te_calc_ndcg, which also serves
 * dcg and ideal_dcg): the ideal walk stops once its gains stop being positive.
 */
export function dcgSums(j: JudgedRanking, params: GainParams): { resultsDcg: number; idealDcg: number } {
  const gains = setupGains(j, params);
  const ideal = new IdealGains(gains);
  let resultsDcg = 0.0;
  let idealDcg = 0.0;
  let i = 0;
  for (; i < j.numRet && ideal.gain > 0.0; i++) {
    const rg = getGain(j.rels[i] as number, gains);
    if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
    ideal.advance();
    if (ideal.gain > 0.0) idealDcg += ideal.gain / Math.log2(i + 2);
  }
  for (; i < j.numRet; i++) {
    const rg = getGain(j.rels[i] as number, gains);
    if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
  }
  while (ideal.gain > 0.0) {
    ideal.advance();
    if (ideal.gain > 0.0) idealDcg += ideal.gain / Math.log2(i + 2);
    i++;
  }
  return { resultsDcg, idealDcg };
}
