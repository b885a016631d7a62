import { getGain, IdealGains, NO_GAINS, parseGainParams, setupGains, type GainParams } from './_gains.js';
import type { RankingMeasure } from './_types.js';

/** nDCG averaged at the R levels (trec_eval m_Rndcg.c). */
export const Rndcg: RankingMeasure<GainParams> = {
  id: 'Rndcg',
  kind: 'float',
  help: `nDCG averaged at the R levels (experimental).
Per query: the mean of nDCG@k over the ranks k where the ideal gain changes: the number of judged docs
at each gain level, gains taken in decreasing order (5 docs of gain 3, 3 of gain 2, 10 of gain 1:
k = 5, 8, 18), plus the end of the ranking when it is longer than the positive-gain ideal list.
0 when no doc in the qrels is relevant (grade >= relevance level). Gains as for ndcg
(-m Rndcg.1=3.5,2=9; other grades keep gain = grade).
Summary: mean over queries. Source: trec_eval m_Rndcg.c, gain_init.c.`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('Rndcg', text),
  names: (p) => [p.text ? `Rndcg_${p.text}` : 'Rndcg'],
  perQuery(j, params) {
    const gains = setupGains(j, params);
    if (j.numRel === 0) return [0];
    const ideal = new IdealGains(gains);
    let resultsDcg = 0.0;
    let idealDcg = 0.0;
    let oldIdealGain = ideal.gain;
    let sum = 0.0;
    let numChanges = 0;
    const boundary = (): void => {
      if (oldIdealGain !== ideal.gain) {
        if (idealDcg > 0.0) {
          sum += resultsDcg / idealDcg;
          numChanges++;
        }
        oldIdealGain = ideal.gain;
      }
    };
    let i = 0;
    for (; i < j.numRet && ideal.gain > 0.0; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      ideal.advance();
      boundary();
      if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
      if (ideal.gain > 0.0) idealDcg += ideal.gain / Math.log2(i + 2);
    }
    if (i < j.numRet) {
      for (; i < j.numRet; i++) {
        const rg = getGain(j.rels[i] as number, gains);
        if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
      }
      if (idealDcg > 0.0) {
        sum += resultsDcg / idealDcg;
        numChanges++;
      }
    }
    while (ideal.gain > 0.0) {
      ideal.advance();
      boundary();
      if (ideal.gain > 0.0) idealDcg += ideal.gain / Math.log2(i + 2);
      i++;
    }
    return [sum / numChanges];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
