import { cutoffLoop, defineCutoffMeasure } from './_cutoff-measure.js';
import { DEFAULT_CUTOFFS } from './_params.js';

/** Relative precision at cutoffs (trec_eval m_rel_P.c). */
export const relativeP = defineCutoffMeasure({
  id: 'relative_P',
  help: `Relative precision at cutoffs k: (relevant docs in the top k) / min(k, R), R = relevant docs in
the qrels: precision up to R, recall after it. When fewer than k docs are retrieved the rest count as
non-relevant. 0 for a query with no relevant doc.
Summary: mean over queries. Default cutoffs 5,10,15,20,30,100,200,500,1000.
Source: trec_eval m_rel_P.c.`,
  defaults: DEFAULT_CUTOFFS,
  perQuery: (j, cutoffs, opts) =>
    j.numRel === 0
      ? cutoffs.map(() => 0)
      : cutoffLoop(j, cutoffs, opts.relevanceLevel, (hits, k) => hits / Math.min(k, j.numRel)),
});
