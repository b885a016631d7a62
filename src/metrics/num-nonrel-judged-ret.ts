import { defineSingleMeasure } from './_cutoff-measure.js';

export const numNonrelJudgedRet = defineSingleMeasure({
  id: 'num_nonrel_judged_ret',
  kind: 'int',
  aggregate: 'sum',
  help: `Number of judged non-relevant documents retrieved for the query: retrieved docs with a qrels
grade >= 0 and below the relevance level (docs missing from the qrels or graded < 0 are not counted).
Summary: the sum over queries, not a mean. Source: trec_eval m_num_nonrel_judged_ret.c.`,
  perQuery(j, opts) {
    let n = 0;
    for (let i = 0; i < j.numRet; i++) {
      const r = j.rels[i] as number;
      if (r >= 0 && r < opts.relevanceLevel) n++;
    }
    return n;
  },
});
