import { defineSingleMeasure } from './_cutoff-measure.js';

/** Mean average precision (trec_eval m_map.c). */
export const map = defineSingleMeasure({
  id: 'map',
  help: `Mean Average Precision.
Per query: AP = (1/R) * sum over relevant retrieved docs d of P@rank(d), where R = relevant docs in the
qrels (grade >= relevance level) and P@k = relevant in top k / k. Unretrieved relevant docs add 0.
Summary: arithmetic mean over queries.
Source: trec_eval m_map.c; Buckley & Voorhees, "Retrieval System Evaluation", TREC: Experiment and
Evaluation in IR, MIT Press 2005.`,
  perQuery(j, opts) {
    let relSoFar = 0;
    let sum = 0.0;
    const rels = j.rels;
    for (let i = 0; i < j.numRet; i++) {
      if ((rels[i] as number) >= opts.relevanceLevel) {
        relSoFar++;
        sum += relSoFar / (i + 1);
      }
    }
    return relSoFar ? sum / j.numRel : 0;
  },
});
