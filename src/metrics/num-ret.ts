import { defineSingleMeasure } from './_cutoff-measure.js';

export const numRet = defineSingleMeasure({
  id: 'num_ret',
  kind: 'int',
  aggregate: 'sum',
  help: `Number of documents retrieved for the query (after the -M depth cap).
Summary: the sum over queries, not a mean. Source: trec_eval m_num_ret.c.`,
  perQuery: (j) => j.numRet,
});
