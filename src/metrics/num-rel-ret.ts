import { defineSingleMeasure } from './_cutoff-measure.js';

export const numRelRet = defineSingleMeasure({
  id: 'num_rel_ret',
  kind: 'int',
  aggregate: 'sum',
  help: `Number of relevant documents (grade >= relevance level) retrieved for the query.
Summary: the sum over queries, not a mean. Source: trec_eval m_num_rel_ret.c.`,
  perQuery: (j) => j.numRelRet,
});
