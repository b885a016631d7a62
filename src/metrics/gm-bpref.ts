import { bpref } from './bpref.js';
import { defineSingleMeasure } from './_cutoff-measure.js';

/** trec_eval's MIN_GEO_MEAN: the floor put under a per-query value before its log is taken. */
const MIN_GEO_MEAN = 0.00001;

/** bpref combined over queries by the geometric mean (trec_eval m_gm_bpref.c). */
export const gmBpref = defineSingleMeasure({
  id: 'gm_bpref',
  help: `Geometric mean of bpref over queries (rewards runs that are consistent across queries).
Per query: log(max(bpref, 0.00001)), bpref as for the bpref measure; not printed per query.
Summary: exp(mean of the per-query logs), i.e. the geometric mean of the floored bpref values.
Source: trec_eval m_gm_bpref.c, meas_avg.c (te_calc_avg_meas_s_gm).`,
  perQuery: (j, opts) => Math.log(Math.max(bpref.perQuery(j, null, opts)[0]!, MIN_GEO_MEAN)),
  aggregate: (logs, ctx) => {
    let sum = 0;
    for (const v of logs) sum += v;
    return Math.exp(sum / ctx.numQueries);
  },
  printPerQuery: false,
});
