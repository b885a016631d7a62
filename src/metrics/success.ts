import { cutoffLoop, defineCutoffMeasure } from './_cutoff-measure.js';

/** Success at cutoffs (trec_eval m_success.c). */
export const success = defineCutoffMeasure({
  id: 'success',
  help: `Success at cutoffs k: 1 when at least one relevant doc is in the top k, else 0.
Summary: mean over queries (the share of queries with a hit). Default cutoffs 1,5,10.
Source: trec_eval m_success.c (Stephen Tomlinson).`,
  defaults: [1, 5, 10],
  perQuery: (j, cutoffs, opts) => cutoffLoop(j, cutoffs, opts.relevanceLevel, (hits) => (hits ? 1.0 : 0.0)),
});
