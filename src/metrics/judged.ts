import { cutoffLoop, defineCutoffMeasure } from './_cutoff-measure.js';

/** Judged at cutoffs: the share of the top k that the qrels judge (the complement of trec_eval's unj). */
export const judged = defineCutoffMeasure({
  id: 'judged',
  help: `Judged at cutoffs k: (docs in the top k that have any qrels line with grade >= 0) / k.
When fewer than k docs are retrieved the missing positions count as not judged, as in ir_measures'
Judged@k (MacAvaney et al.); when at least k are retrieved judged_k = 1 - trec_eval's unj_k.
A low value warns that the qrels do not cover what the system returns, so the other numbers are
lower bounds. Summary: mean over queries. Default cutoffs 5,10,20.
Source: trec_eval m_unjudged.c (unj); ir_measures Judged@k.`,
  defaults: [5, 10, 20],
  perQuery: (j, cutoffs) => cutoffLoop(j, cutoffs, 0, (hits, k) => hits / k),
});
