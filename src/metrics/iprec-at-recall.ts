import { doubleCutoffNames, ELEVEN_RECALL_LEVELS, parseDoubleCutoffs } from './_double-params.js';
import { interpolatedPrecision } from './_interpolated.js';
import type { RankingMeasure } from './_types.js';

/** Interpolated precision at recall levels (trec_eval m_iprec_at_recall.c). */
export const iprecAtRecall: RankingMeasure<number[]> = {
  id: 'iprec_at_recall',
  kind: 'float',
  help: `Interpolated precision at recall levels: the points of the standard recall-precision graph.
Per query: a level f stands for the first rank holding lround(f * R) relevant docs (R = relevant in the
qrels); its value is the highest precision at that rank or any rank below it in the ranking
(Int_Prec(rank x) = max Prec(rank y) for y >= x). Levels past the relevant docs retrieved score 0.
Summary: mean over queries. Default levels 0.0,0.1,...,1.0 (names iprec_at_recall_0.00 ... _1.00);
-m iprec_at_recall.0.25,0.75 picks others (sorted; duplicates refused).
Source: trec_eval m_iprec_at_recall.c (version 10 rounds f * R, earlier versions added 0.9 and
truncated); Manning, Raghavan & Schutze, Introduction to IR (2008), section 8.4.`,
  defaults: ELEVEN_RECALL_LEVELS,
  defaultParamText: ELEVEN_RECALL_LEVELS.map((f) => f.toFixed(1)).join(','),
  parseParams: (text) => parseDoubleCutoffs('iprec_at_recall', text),
  names: (levels) => doubleCutoffNames('iprec_at_recall', levels),
  perQuery: (j, levels, opts) => interpolatedPrecision(j, levels, opts.relevanceLevel),
  aggregate: 'mean',
  printPerQuery: true,
};
