import { ELEVEN_RECALL_LEVELS, paramName, parseDoubleParams, type DoubleParams } from './_double-params.js';
import { interpolatedPrecision } from './_interpolated.js';
import type { RankingMeasure } from './_types.js';

/** Interpolated precision averaged over recall levels (trec_eval m_11pt_avg.c). */
export const elevenPtAvg: RankingMeasure<DoubleParams> = {
  id: '11pt_avg',
  kind: 'float',
  help: `11-point average: interpolated precision (see iprec_at_recall) averaged over the recall levels
0.0,0.1,...,1.0. Obsolete (use map); kept for comparing old runs.
-m 11pt_avg.0.2,0.5,0.8 averages over the levels given (the 3-point average of trec_eval 8); the value
is then printed as 11pt_avg_0.2,0.5,0.8. Levels should be given in increasing order, as trec_eval
does not sort them. Summary: mean over queries.
Source: trec_eval m_11pt_avg.c; Salton & McGill, Introduction to Modern IR (1983).`,
  defaults: { values: ELEVEN_RECALL_LEVELS, text: null },
  defaultParamText: '',
  parseParams: (text) => parseDoubleParams('11pt_avg', text),
  names: (p) => [paramName('11pt_avg', p)],
  perQuery(j, p, opts) {
    const iprec = interpolatedPrecision(j, p.values, opts.relevanceLevel);
    // trec_eval adds the levels from the last to the first
    let sum = 0.0;
    for (let i = iprec.length - 1; i >= 0; i--) sum += iprec[i] as number;
    return [sum / iprec.length];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
