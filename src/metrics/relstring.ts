import { paramName, parseDoubleParams, type DoubleParams } from './_double-params.js';
import { REL_NONPOOL, REL_UNJUDGED, type TextMeasure } from './_types.js';

/** The grades of the top N retrieved docs as a string (trec_eval m_relstring.c). */
export const relstring: TextMeasure<DoubleParams> = {
  id: 'relstring',
  kind: 'text',
  help: `The grades of the first N retrieved docs (default 10) as a string, one character per doc:
the grade when it is 0-9, '>' above 9, '-' for a doc not in the qrels, '.' for a doc in the qrels
with a negative grade (pooled, not judged). Printed in single quotes, only per query (-q); there is
no summary line. -m relstring.20 sets N and prints relstring_20. Under -c a query missing from the
run prints '' (with parameters, '-': trec_eval's placeholder doc). Source: trec_eval m_relstring.c.`,
  defaults: { values: [10], text: null },
  defaultParamText: '',
  parseParams: (text) => parseDoubleParams('relstring', text),
  names: (p) => [paramName('relstring', p)],
  perQueryText(j, p) {
    // C's (long) cast truncates toward zero; a negative length prints ''
    const n = Math.trunc(p.values[0] as number);
    // -c: trec_eval scores a missing query on a one-doc placeholder ranking (a doc not in the qrels)
    // and blanks the string only under the plain name "relstring" (trec_eval.c compares the name)
    if (!j.inRun) return [p.text !== null && n >= 1 && j.standIn ? '-' : ''];
    const len = Math.max(0, Math.min(n, j.numRet));
    let s = '';
    for (let i = 0; i < len; i++) {
      const rel = j.rels[i] as number;
      if (rel > 9) s += '>';
      else if (rel >= 0) s += String.fromCharCode(48 + rel);
      else if (rel === REL_NONPOOL) s += '-';
      else if (rel === REL_UNJUDGED) s += '.';
      else s += '<';
    }
    return [s];
  },
  printPerQuery: true,
};
