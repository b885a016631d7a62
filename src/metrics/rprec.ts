import { defineSingleMeasure } from './_cutoff-measure.js';

/** R-precision (trec_eval m_Rprec.c). */
export const rprec = defineSingleMeasure({
  id: 'Rprec',
  help: `R-Precision: precision after R documents, R = relevant docs for the query.
Per query: (relevant in top min(R, retrieved)) / R; 0 when R = 0 or nothing is retrieved.
Summary: mean over queries.
Source: trec_eval m_Rprec.c; Buckley & Voorhees 2005.`,
  perQuery(j, opts) {
    const n = Math.min(j.numRet, j.numRel);
    if (n === 0) return 0;
    let rel = 0;
    for (let i = 0; i < n; i++) if ((j.rels[i] as number) >= opts.relevanceLevel) rel++;
    return rel / j.numRel;
  },
});
