import { cutoffLoop, defineCutoffMeasure } from './_cutoff-measure.js';
import { DEFAULT_CUTOFFS } from './_params.js';

/** Precision at cutoffs (trec_eval m_P.c). */
export const precision = defineCutoffMeasure({
  id: 'P',
  help: `Precision at cutoffs k: (relevant docs in the top k) / k.
When fewer than k docs are retrieved the rest count as non-relevant (P_20 of 4 relevant in 15 = 0.2).
Summary: mean over queries. Default cutoffs 5,10,15,20,30,100,200,500,1000.
Source: trec_eval m_P.c.`,
  defaults: DEFAULT_CUTOFFS,
  perQuery: (j, cutoffs, opts) => cutoffLoop(j, cutoffs, opts.relevanceLevel, (hits, k) => hits / k),
});
