import { defineSingleMeasure } from './_cutoff-measure.js';

/** Set precision relative to the best possible (trec_eval m_set_rel_P.c). */
export const setRelativeP = defineSingleMeasure({
  id: 'set_relative_P',
  help: `Relative set precision: relevant retrieved / min(retrieved, R), the set precision over the best
precision a set of that size could have (0 when nothing is retrieved or R = 0). Summary: mean over
queries. Source: trec_eval m_set_rel_P.c (exact_relative_prec in earlier versions).`,
  perQuery: (j) => (j.numRet && j.numRel ? j.numRelRet / Math.min(j.numRet, j.numRel) : 0),
});
