import { doubleCutoffNames, parseDoubleCutoffs } from './_double-params.js';
import type { RankingMeasure } from './_types.js';

const DEFAULT_MULTIPLES = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0];

/** Precision at multiples of R (trec_eval m_Rprec_mult.c). */
export const rprecMult: RankingMeasure<number[]> = {
  id: 'Rprec_mult',
  kind: 'float',
  help: `Precision at multiples of R (R = relevant docs in the qrels): for a multiple m, precision in the
top k = trunc(m * R + 0.9) docs; when fewer than k are retrieved the rest count as non-relevant; 0 when
k = 0. Shows whether a run is precision oriented (good at low multiples) or recall oriented.
Summary: mean over queries. Default multiples 0.2,0.4,...,2.0 (names Rprec_mult_0.20 ... _2.00);
-m Rprec_mult.0.5,1,3 picks others (sorted; duplicates refused).
Source: trec_eval m_Rprec_mult.c.`,
  defaults: DEFAULT_MULTIPLES,
  defaultParamText: DEFAULT_MULTIPLES.map((f) => f.toFixed(1)).join(','),
  parseParams: (text) => parseDoubleCutoffs('Rprec_mult', text),
  names: (multiples) => doubleCutoffNames('Rprec_mult', multiples),
  perQuery(j, multiples, opts) {
    const n = multiples.length;
    const out = new Array<number>(n).fill(0);
    const ks = multiples.map((m) => Math.trunc(m * j.numRel + 0.9));
    let cut = n - 1;
    for (; cut >= 0 && (ks[cut] as number) > j.numRet; cut--) out[cut] = j.numRelRet / (ks[cut] as number);
    // walk up from the bottom of the ranking, relevant-so-far = relevant in the top i
    let relSoFar = j.numRelRet;
    for (let i = j.numRet; i > 0 && relSoFar > 0; i--) {
      while (cut >= 0 && i === ks[cut]) out[cut--] = relSoFar / i;
      if ((j.rels[i - 1] as number) >= opts.relevanceLevel) relSoFar--;
    }
    return out;
  },
  aggregate: 'mean',
  printPerQuery: true,
};
