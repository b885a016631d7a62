import { getGain, NO_GAINS, parseGainParams, setupGains, type GainParams } from './_gains.js';
import type { RankingMeasure } from './_types.js';

/** Rank-biased precision with a gain table (trec_eval m_rbp.c). */
export const rbp: RankingMeasure<GainParams> = {
  id: 'rbp',
  kind: 'float',
  help: `Rank-Biased Precision: the utility a user gains who reads down the ranking and goes on from each
doc to the next with probability p (persistence; default 0.9, close to P_10; 0.95 or 0.98 come closer
to average precision).
Per query: (1 - p) * sum over ranks k of gain(grade_k) * p^(k-1). Gains default to the grade; name=value
pairs set them, as for ndcg (-m rbp.p=0.95,1=1,2=3); a grade missing from the table gains 0. When a gain
is below 0 or above 1, every gain g becomes (g - min) / (max - min), min and max taken over the gains
and 0 (trec_eval reads min and max uninitialised; see DECISIONS.md). Not affected by -l. Summary: mean
over queries. Source: trec_eval m_rbp.c; Moffat & Zobel, "Rank-Biased Precision for Measurement of
Retrieval Effectiveness", ACM TOIS 27(1), 2008.`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('rbp', text, '-m rbp.p=0.95'),
  names: (p) => [p.text ? `rbp_${p.text}` : 'rbp'],
  perQuery(j, params) {
    let p = 0.9;
    for (const pair of params.pairs) if (pair.level === 'p') p = pair.gain;
    const gains = setupGains(j, params);
    // trec_eval starts min and max uninitialised. Built as NIST ships it (gcc, no -O) they hold what the
    // previous measure left on the stack: on this machine, with all_trec or rbp alone, pointers and
    // counts, i.e. tiny positive doubles, which give exactly the results of starting both at 0.
    let min = 0;
    let max = 0;
    for (const g of gains) {
      if (g.gain < min) min = g.gain;
      if (g.gain > max) max = g.gain;
    }
    if (min < 0 || max > 1) for (const g of gains) g.gain = (g.gain - min) / (max - min);
    let sum = 0.0;
    let curP = 1.0;
    for (let i = 0; i < j.numRet; i++) {
      const gain = getGain(j.rels[i] as number, gains);
      if (gain !== 0) sum += gain * curP;
      curP = curP * p;
    }
    return [(1.0 - p) * sum];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
