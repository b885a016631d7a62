import { defineSingleMeasure } from './_cutoff-measure.js';

export const numQ = defineSingleMeasure({
  id: 'num_q',
  kind: 'int',
  printPerQuery: false,
  help: `Number of queries the summary averages over: queries with both results and judgments, or with -c
every query in the qrels. Source: trec_eval m_num_q.c.`,
  aggregate: (_perQuery, ctx) => ctx.numQueries,
  perQuery: () => 1,
});
