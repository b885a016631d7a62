import { defineSingleMeasure } from './_cutoff-measure.js';

/** Yet Another Average Precision (trec_eval m_yaap.c). */
export const yaap = defineSingleMeasure({
  id: 'yaap',
  help: `Yet Another Average Precision: a smoothed AP on a log-odds scale, meant to average better
across queries than AP. Per query: log((1 + S) / (1 + R - S)), where S = sum over relevant retrieved
docs of P@rank (AP before dividing by R) and R = relevant docs in the qrels.
Summary: mean over queries.
Source: trec_eval m_yaap.c; Robertson, "On Smoothing Average Precision", ECIR 2012.`,
  perQuery(j, opts) {
    let relSoFar = 0;
    let sum = 0.0;
    for (let i = 0; i < j.numRet; i++) {
      if ((j.rels[i] as number) >= opts.relevanceLevel) {
        relSoFar++;
        sum += relSoFar / (i + 1);
      }
    }
    return Math.log((1.0 + sum) / (1.0 + j.numRel - sum));
  },
});
