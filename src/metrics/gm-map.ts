import { defineSingleMeasure } from './_cutoff-measure.js';
import { map } from './map.js';

/** trec_eval's floor for a geometric mean (trec_eval.h MIN_GEO_MEAN): a 0 AP counts as 0.00001. */
const MIN_GEO_MEAN = 0.00001;

/** Geometric mean average precision (trec_eval m_gm_map.c, meas_avg.c te_calc_avg_meas_s_gm). */
export const gmMap = defineSingleMeasure({
  id: 'gm_map',
  help: `Geometric Mean Average Precision (Robertson, "On GMAP", CIKM 2006; TREC Robust track).
Per query: AP as in map. Summary: exp(mean over queries of ln(max(AP, 0.00001))), so a query with AP
0 counts as 0.00001; under -c a query missing from the run counts as 0.00001 too. Rewards consistency
over queries. Printed only in the summary, as trec_eval does.
Source: trec_eval m_gm_map.c (MIN_GEO_MEAN in trec_eval.h).`,
  printPerQuery: false,
  perQuery: (j, opts) => map.perQuery(j, null, opts)[0] as number,
  aggregate(perQuery, ctx) {
    // trec_eval sums ln(AP) per query in query order, then averages
    let sum = 0.0;
    for (const ap of perQuery) sum += Math.log(Math.max(ap, MIN_GEO_MEAN));
    return ctx.numQueries > 0 ? Math.exp(sum / ctx.numQueries) : 0;
  },
});
