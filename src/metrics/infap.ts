import { defineSingleMeasure } from './_cutoff-measure.js';
import { REL_NONPOOL, REL_UNJUDGED } from './_types.js';

/** trec_eval's INFAP_EPSILON: smoothing so a rank with no judged docs above it is defined. */
const EPSILON = 0.00001;

/** Inferred average precision (trec_eval m_infap.c). */
export const infAP = defineSingleMeasure({
  id: 'infAP',
  help: `Inferred AP: average precision estimated from a randomly sampled judgment pool.
Per query: (1/R) * sum over relevant retrieved docs at rank k of E[P@k], where E[P@1] = 1 and for
k > 1: E[P@k] = 1/k + ((k-1)/k) * (pooled/(k-1)) * ((r + eps) / (r + n + 2*eps)), with r, n = judged
relevant / non-relevant docs above k, pooled = r + n + pooled-but-unjudged docs (qrels grade < 0)
above k, eps = 0.00001. Docs not in the qrels count as non-relevant (outside the pool); pooled but
unjudged docs are skipped. R = relevant docs in the qrels.
Summary: mean over queries.
Source: trec_eval m_infap.c; Yilmaz & Aslam, "Estimating Average Precision with Incomplete and
Imperfect Judgments", CIKM 2006.`,
  perQuery(j, opts) {
    let nonrelSoFar = 0;
    let relSoFar = 0;
    let unjudgedSoFar = 0;
    let infAp = 0.0;
    for (let i = 0; i < j.numRet; i++) {
      const r = j.rels[i] as number;
      if (r === REL_NONPOOL) continue;
      if (r === REL_UNJUDGED) {
        unjudgedSoFar++;
        continue;
      }
      if (r < opts.relevanceLevel) {
        nonrelSoFar++;
        continue;
      }
      relSoFar++;
      if (i === 0) infAp += 1.0;
      else {
        const above = relSoFar - 1;
        infAp +=
          1.0 / (i + 1.0) +
          (i / (i + 1.0)) *
            ((above + nonrelSoFar + unjudgedSoFar) / i) *
            ((above + EPSILON) / (above + nonrelSoFar + 2 * EPSILON));
      }
    }
    return j.numRel ? infAp / j.numRel : infAp;
  },
});
