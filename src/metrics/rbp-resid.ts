import { NO_GAINS, parseGainParams, type GainParams } from './_gains.js';
import type { RankingMeasure } from './_types.js';

/** Residual of rank-biased precision (trec_eval m_rbp_resid.c). */
export const rbpResid: RankingMeasure<GainParams> = {
  id: 'rbp_resid',
  kind: 'float',
  help: `Residual of Rank-Biased Precision: how much RBP could still rise if every unjudged retrieved doc
(not in the qrels, or graded < 0) had the maximum gain 1.
Per query: p^n + (1 - p) * sum over unjudged docs at rank k of p^(k-1), n = docs retrieved; 0 when
no retrieved doc is unjudged. Persistence p = 0.9 by default, set with -m rbp_resid.p=0.95 (other
name=value pairs are accepted and ignored, as in trec_eval). Under -c a query missing from the run
scores 0, or 1 when parameters are given (trec_eval's one-doc placeholder ranking).
Summary: mean over queries. Source: trec_eval m_rbp_resid.c; Moffat & Zobel, "Rank-Biased Precision
for Measurement of Retrieval Effectiveness", ACM TOIS 27(1), 2008.`,
  defaults: NO_GAINS,
  defaultParamText: '',
  parseParams: (text) => parseGainParams('rbp_resid', text, '-m rbp_resid.p=0.95'),
  names: (p) => [p.text ? `rbp_resid_${p.text}` : 'rbp_resid'],
  perQuery(j, params) {
    let p = 0.9;
    for (const pair of params.pairs) if (pair.level === 'p') p = pair.gain;
    // -c: trec_eval scores a missing query on a one-doc placeholder ranking (an unjudged doc) and
    // zeroes the value only under the plain name "rbp_resid" (trec_eval.c)
    if (j.standIn && params.text !== '') return [p + (1 - p) * 1.0];
    let unjudged = 0;
    let sum = 0.0;
    let curP = 1.0;
    for (let i = 0; i < j.numRet; i++) {
      if ((j.rels[i] as number) < 0) {
        unjudged++;
        sum += curP;
      }
      curP *= p;
    }
    return [unjudged ? curP + (1 - p) * sum : 0];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
