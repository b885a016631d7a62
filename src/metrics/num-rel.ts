import { defineSingleMeasure } from './_cutoff-measure.js';

export const numRel = defineSingleMeasure({
  id: 'num_rel',
  kind: 'int',
  help: `Number of relevant documents (grade >= relevance level) in the qrels for the query.
Summary: the sum over queries. Under -c it is recomputed from every qrels query and, as trec_eval does,
counts lines with grade > 0 whatever the relevance level. Source: trec_eval m_num_rel.c.`,
  aggregate(perQuery, ctx) {
    if (!ctx.averageComplete) return perQuery.reduce((a, b) => a + b, 0);
    let n = 0;
    for (const g of ctx.allQrelsGrades()) if (g > 0) n++;
    return n;
  },
  perQuery: (j) => j.numRel,
});
