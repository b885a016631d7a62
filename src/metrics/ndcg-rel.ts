import { getGain, IdealGains, NO_GAINS, parseGainParams, setupGains, type GainParams } from './_gains.js';
import type { RankingMeasure } from './_types.js';

/** nDCG averaged over the relevant docs (trec_eval m_ndcg_rel.c). */
export const ndcgRel: RankingMeasure<GainParams> = {
  id: 'ndcg_rel',
  kind: 'float',
  help: `nDCG averaged over relevant docs (experimental).
Per query: the mean over docs with positive gain of nDCG at the doc's rank; a relevant doc that is not
retrieved contributes nDCG at the end of the ranking (results DCG / ideal DCG over the whole ideal
list). The count of relevant docs is the length of the positive-gain ideal list. Gains as for ndcg
(-m ndcg_rel.1=3.5,2=9; other grades keep gain = grade). Not affected by -l.
Summary: mean over queries. Source: trec_eval m_ndcg_rel.c, gain_init.c.`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('ndcg_rel', text),
  names: (p) => [p.text ? `ndcg_rel_${p.text}` : 'ndcg_rel'],
  perQuery(j, params) {
    const gains = setupGains(j, params);
    const ideal = new IdealGains(gains);
    let resultsDcg = 0.0;
    let idealDcg = 0.0;
    let sum = 0.0;
    let numRelRet = 0;
    let numRel = 0;
    let i = 0;
    for (; i < j.numRet && ideal.gain > 0.0; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
      ideal.advance();
      if (ideal.gain > 0.0) {
        numRel++;
        idealDcg += ideal.gain / Math.log2(i + 2);
      }
      if (rg > 0) {
        sum += resultsDcg / idealDcg;
        numRelRet++;
      }
    }
    for (; i < j.numRet; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
      if (rg > 0) {
        sum += resultsDcg / idealDcg;
        numRelRet++;
      }
    }
    while (ideal.gain > 0.0) {
      ideal.advance();
      if (ideal.gain > 0.0) {
        numRel++;
        idealDcg += ideal.gain / Math.log2(i + 2);
      }
      i++;
    }
    sum += ((numRel - numRelRet) * resultsDcg) / idealDcg;
    return [sum > 0.0 ? sum / numRel : 0];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
