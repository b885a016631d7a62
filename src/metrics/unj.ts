import { cutoffLoop, defineCutoffMeasure } from './_cutoff-measure.js';

/** Unjudged fraction at cutoffs (trec_eval 10 m_unjudged.c). */
export const unj = defineCutoffMeasure({
  id: 'unj',
  help: `Unjudged at cutoffs k: (docs in the top k that are not in the qrels or are graded < 0) / k.
When fewer than k docs are retrieved the rest count as judged (15 retrieved with 4 unjudged: unj_20 =
0.2). A "red flag" measure: high values at small k mean the qrels cover the run poorly. judged_k
(rgate) is 1 - unj_k when k docs are retrieved.
Summary: mean over queries. Default cutoffs 5,10,20.
Source: trec_eval 10.0 m_unjudged.c (Soboroff, 2023).`,
  defaults: [5, 10, 20],
  perQuery: (j, cutoffs) => cutoffLoop(j, cutoffs, 'unjudged', (hits, k) => hits / k),
});
