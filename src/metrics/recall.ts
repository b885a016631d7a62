import { cutoffLoop, defineCutoffMeasure } from './_cutoff-measure.js';
import { DEFAULT_CUTOFFS } from './_params.js';

/** Recall at cutoffs (trec_eval m_recall.c). */
export const recall = defineCutoffMeasure({
  id: 'recall',
  help: `Recall at cutoffs k: (relevant docs in the top k) / R, R = relevant docs in the qrels.
0 when R = 0. Summary: mean over queries. Default cutoffs 5,10,15,20,30,100,200,500,1000.
Source: trec_eval m_recall.c.`,
  defaults: DEFAULT_CUTOFFS,
  perQuery: (j, cutoffs, opts) =>
    j.numRel === 0
      ? cutoffs.map(() => 0)
      : cutoffLoop(j, cutoffs, opts.relevanceLevel, (hits) => hits / j.numRel),
});
