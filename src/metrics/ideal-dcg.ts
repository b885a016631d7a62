import { NO_GAINS, parseGainParams, type GainParams } from './_gains.js';
import { dcgSums } from './ndcg.js';
import type { RankingMeasure } from './_types.js';

/** DCG of the ideal ranking (trec_eval m_ndcg.c te_meas_ideal_dcg; not in all_trec). */
export const idealDcg: RankingMeasure<GainParams> = {
  id: 'ideal_dcg',
  kind: 'float',
  help: `Ideal Discounted Cumulative Gain: the DCG of the judged docs sorted by decreasing gain (positive
gains only), the denominator of ndcg. Gains default to the grade; -m ideal_dcg.1=3,2=9 sets them as for
ndcg. Not affected by -l. Not in all_trec (request it by name). Summary: mean over queries.
Source: trec_eval m_ndcg.c (te_meas_ideal_dcg).`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('ideal_dcg', text),
  names: (p) => [p.text ? `ideal_dcg_${p.text}` : 'ideal_dcg'],
  perQuery: (j, params) => [dcgSums(j, params).idealDcg],
  aggregate: 'mean',
  printPerQuery: true,
};
