import { NO_GAINS, parseGainParams, type GainParams } from './_gains.js';
import { dcgSums } from './ndcg.js';
import type { RankingMeasure } from './_types.js';

/** Unnormalised DCG over the whole ranking (trec_eval m_ndcg.c te_meas_dcg; not in all_trec). */
export const dcg: RankingMeasure<GainParams> = {
  id: 'dcg',
  kind: 'float',
  help: `Discounted Cumulative Gain over the whole ranking, not normalised: the numerator of ndcg.
Per query: sum over ranks i of gain(grade_i) / log2(i + 1). Gains default to the grade; -m dcg.1=3,2=9
sets them as for ndcg. Not affected by -l. Not in all_trec (request it by name). Summary: mean over
queries. Source: trec_eval m_ndcg.c (te_meas_dcg).`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('dcg', text),
  names: (p) => [p.text ? `dcg_${p.text}` : 'dcg'],
  perQuery: (j, params) => [dcgSums(j, params).resultsDcg],
  aggregate: 'mean',
  printPerQuery: true,
};
