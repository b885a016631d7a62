import { defineSingleMeasure } from './_cutoff-measure.js';

/** Recall of the whole retrieved set (trec_eval m_set_recall.c). */
export const setRecall = defineSingleMeasure({
  id: 'set_recall',
  help: `Set recall: relevant retrieved / relevant in the qrels, over every doc retrieved (0 when R = 0).
Summary: mean over queries.
Source: trec_eval m_set_recall.c (exact_recall in earlier versions).`,
  perQuery: (j) => (j.numRel ? j.numRelRet / j.numRel : 0),
});
