import { paramName, parseDoubleParams, type DoubleParams } from './_double-params.js';
import type { RankingMeasure } from './_types.js';

/** F measure of the retrieved set (trec_eval m_set_F.c). */
export const setF: RankingMeasure<DoubleParams> = {
  id: 'set_F',
  kind: 'float',
  help: `Set F: weighted harmonic mean of set precision P and set recall R,
F = (b + 1) * P * R / (b * P + R), b = the weight of recall relative to precision (default 1.0, the F1
of P and R; note b, not beta squared). 0 when no relevant doc is retrieved. -m set_F.0.5 sets b and
prints set_F_0.5 (only the first value given is used). Summary: mean over queries.
Source: trec_eval m_set_F.c; variant of van Rijsbergen's E measure (Information Retrieval, 1979).`,
  defaults: { values: [1.0], text: null },
  defaultParamText: '',
  parseParams: (text) => parseDoubleParams('set_F', text),
  names: (p) => [paramName('set_F', p)],
  perQuery(j, p) {
    if (!j.numRelRet) return [0];
    const P = j.numRelRet / j.numRet;
    const R = j.numRelRet / j.numRel;
    const b = p.values[0] as number;
    return [((b + 1.0) * P * R) / (b * P + R)];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
