import { getGain, IdealGains, NO_GAINS, parseGainParams, setupGains, type GainParams } from './_gains.js';
import type { RankingMeasure } from './_types.js';

/** Normalized gain G (trec_eval m_G.c). */
export const G: RankingMeasure<GainParams> = {
  id: 'G',
  kind: 'float',
  help: `Normalized Gain G (experimental, trec_eval 2008), between MAP and nDCG.
Per query: the doc at rank i contributes gain(i) / log2(2 + cost(i) - got(i)), where got(i) = the gains
of ranks 1..i and cost(i) = the sum over ranks 1..i of max(ideal gain at that rank, 1); the sum is divided
by the total ideal gain (the gains of all judged docs with positive gain). Gains default to the grade;
-m G.1=3.5,2=9 sets grade 1 -> 3.5 and grade 2 -> 9 (others keep gain = grade). Not affected by -l.
Summary: mean over queries. Source: trec_eval m_G.c, gain_init.c.`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('G', text),
  names: (p) => [p.text ? `G_${p.text}` : 'G'],
  perQuery(j, params) {
    const gains = setupGains(j, params);
    const ideal = new IdealGains(gains);
    const minCost = 1.0;
    let resultsG = 0.0;
    let sumResults = 0.0;
    let sumIdeal = 0.0;
    let sumCost = 0.0;
    let i = 0;
    for (; i < j.numRet && ideal.gain > 0.0; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      sumResults += rg;
      ideal.advance();
      if (ideal.gain > 0.0) sumIdeal += ideal.gain;
      sumCost += ideal.gain >= minCost ? ideal.gain : minCost;
      if (rg !== 0) resultsG += rg / Math.log2(2 + sumCost - sumResults);
    }
    for (; i < j.numRet; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      sumResults += rg;
      sumCost += minCost;
      if (rg !== 0) resultsG += rg / Math.log2(2 + sumCost - sumResults);
    }
    while (ideal.gain > 0.0) {
      ideal.advance();
      if (ideal.gain > 0.0) sumIdeal += ideal.gain;
    }
    return [sumIdeal > 0.0 ? resultsG / sumIdeal : 0];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
