import { defineSingleMeasure } from './_cutoff-measure.js';

/** Precision of the whole retrieved set (trec_eval m_set_P.c). */
export const setP = defineSingleMeasure({
  id: 'set_P',
  help: `Set precision: relevant retrieved / retrieved, over every doc retrieved (0 when none is).
Unlike P_k it does not pad short rankings: -M 50 -m set_P differs from -m P.50 when fewer than 50 docs
are retrieved. Summary: mean over queries.
Source: trec_eval m_set_P.c (exact_prec in earlier versions).`,
  perQuery: (j) => (j.numRet ? j.numRelRet / j.numRet : 0),
});
