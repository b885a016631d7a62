import { defineSingleMeasure } from './_cutoff-measure.js';

/** Unranked average precision of the retrieved set (trec_eval m_set_map.c). */
export const setMap = defineSingleMeasure({
  id: 'set_map',
  help: `Set map: relevant retrieved^2 / (retrieved * R) = set precision * set recall: AP of the retrieved
set taken as unranked, each relevant retrieved doc at the set precision and each relevant doc not
retrieved at 0 (0 when nothing is retrieved or R = 0). Summary: mean over queries.
Source: trec_eval m_set_map.c (exact_unranked_avg_prec in earlier versions).`,
  perQuery: (j) => (j.numRet && j.numRel ? (j.numRelRet * j.numRelRet) / (j.numRet * j.numRel) : 0),
});
