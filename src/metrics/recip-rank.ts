import { defineSingleMeasure } from './_cutoff-measure.js';

/** Reciprocal rank of the first relevant document (trec_eval m_recip_rank.c). */
export const recipRank = defineSingleMeasure({
  id: 'recip_rank',
  help: `Reciprocal Rank of the first relevant retrieved document.
Per query: 1 / rank of the first doc with grade >= relevance level; 0 when none is retrieved.
Summary: mean over queries (MRR).
Source: trec_eval m_recip_rank.c; Voorhees, "The TREC-8 Question Answering Track Report", 1999.`,
  perQuery(j, opts) {
    const rels = j.rels;
    for (let i = 0; i < j.numRet; i++) {
      if ((rels[i] as number) >= opts.relevanceLevel) return 1.0 / (i + 1);
    }
    return 0;
  },
});
