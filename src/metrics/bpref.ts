import { defineSingleMeasure } from './_cutoff-measure.js';
import { REL_NONPOOL, REL_UNJUDGED } from './_types.js';

/** Binary preference (trec_eval m_bpref.c, the 2004 definition as trec_eval computes it). */
export const bpref = defineSingleMeasure({
  id: 'bpref',
  help: `Binary preference: how often judged relevant docs are ranked above judged non-relevant ones.
Per query: (1/R) * sum over relevant retrieved r of (1 - min(n_r, R) / min(N, R)), where n_r = judged
non-relevant docs ranked above r, N = judged non-relevant docs (grade < relevance level), R = relevant
docs; unjudged retrieved docs are skipped; a term is 1 when n_r = 0.
Summary: mean over queries.
Source: trec_eval m_bpref.c; Buckley & Voorhees, "Retrieval Evaluation with Incomplete Information",
SIGIR 2004.`,
  perQuery(j, opts) {
    let numNonrel = 0;
    for (let g = 0; g < opts.relevanceLevel && g < j.relLevels.length; g++) numNonrel += j.relLevels[g] ?? 0;
    let nonrelSoFar = 0;
    let bp = 0.0;
    for (let i = 0; i < j.numRet; i++) {
      const r = j.rels[i] as number;
      if (r === REL_NONPOOL || r === REL_UNJUDGED) continue;
      if (r >= 0 && r < opts.relevanceLevel) nonrelSoFar++;
      else if (nonrelSoFar > 0) {
        bp += 1.0 - Math.min(nonrelSoFar, j.numRel) / Math.min(numNonrel, j.numRel);
      } else bp += 1.0;
    }
    if (j.numRel) bp /= j.numRel;
    return bp;
  },
});
