import { RgateError } from '../core/errors.js';
import type { RankingMeasure } from './_types.js';

/** The four coefficients as given, and the text printed in the name (utility_1,-2,0,0). */
export interface UtilityParams {
  coef: [number, number, number, number];
  text: string;
}

/** C's atof on one comma-separated entry: the longest leading decimal number, 0 when there is none. */
function atof(s: string): number {
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(s);
  return m ? Number(m[0]) : 0;
}

/** Set utility (trec_eval m_utility.c). */
export const utility: RankingMeasure<UtilityParams> = {
  id: 'utility',
  kind: 'float',
  help: `Set utility: a weighted count of the contingency table of the retrieved set.
Per query: p1 * a + p2 * b + p3 * c + p4 * d, where a = relevant retrieved, b = non-relevant (or
unjudged) retrieved, c = relevant not retrieved, d = non-relevant not retrieved. d = N + relevant
retrieved - retrieved - relevant, with N the collection size given by -N (0 without it, as in
trec_eval).
Parameters p1,p2,p3,p4 in that order: -m utility.1,-1,0,0 (the default). A qrels query missing from
the run (under -c) scores 0 when no parameters are given; with parameters it scores as trec_eval's
stand-in ranking of one unjudged doc does (p2 + p3 * relevant + p4 * (N - 1 - relevant)).
Summary: mean over queries. Source: trec_eval m_utility.c.`,
  defaults: { coef: [1.0, -1.0, 0.0, 0.0], text: '' },
  defaultParamText: '',
  parseParams(text) {
    const parts = text.split(',');
    if (parts.length !== 4) {
      throw new RgateError(
        'usage',
        `-m utility.${text}: utility takes exactly four coefficients`,
        'e.g. -m utility.1,-1,0,0 (relevant retrieved, non-relevant retrieved, relevant missed, non-relevant missed)',
      );
    }
    return { coef: parts.map(atof) as UtilityParams['coef'], text };
  },
  names: (p) => [p.text ? `utility_${p.text}` : 'utility'],
  perQuery(j, { coef, text }, opts) {
    const [p1, p2, p3, p4] = coef;
    // -c: trec_eval scores a missing query on a one-doc placeholder ranking and zeroes the value only
    // under the plain name "utility" (trec_eval.c); runs never have an empty query otherwise
    const numRet = j.standIn && text !== '' ? 1 : j.numRet;
    return [
      p1 * j.numRelRet +
        p2 * (numRet - j.numRelRet) +
        p3 * (j.numRel - j.numRelRet) +
        p4 * ((opts.numDocsInCollection ?? 0) + j.numRelRet - numRet - j.numRel),
    ];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
