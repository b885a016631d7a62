import { defineSingleMeasure } from './_cutoff-measure.js';

/** Binary G (trec_eval m_binG.c). */
export const binG = defineSingleMeasure({
  id: 'binG',
  help: `Binary G (experimental, trec_eval 2008): G with gains restricted to 0 or 1.
Per query: (1/R) * sum over relevant retrieved docs d of 1 / log2(2 + non-relevant docs above d),
where relevant = grade >= relevance level, everything else (unjudged included) is non-relevant and R =
relevant docs in the qrels.
Summary: mean over queries. Source: trec_eval m_binG.c.`,
  perQuery(j, opts) {
    let relSoFar = 0;
    let sum = 0.0;
    for (let i = 0; i < j.numRet; i++) {
      if ((j.rels[i] as number) >= opts.relevanceLevel) {
        relSoFar++;
        sum += 1.0 / Math.log2(3 + i - relSoFar);
      }
    }
    return relSoFar ? sum / j.numRel : 0;
  },
});
