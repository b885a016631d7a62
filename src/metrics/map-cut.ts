import { defineCutoffMeasure } from './_cutoff-measure.js';
import { DEFAULT_CUTOFFS } from './_params.js';

/** Average precision at cutoffs (trec_eval m_map_cut.c). */
export const mapCut = defineCutoffMeasure({
  id: 'map_cut',
  help: `Mean Average Precision at cutoffs k.
Per query: AP@k = (1/R) * sum over relevant docs d in the top k of P@rank(d), R = relevant docs in the
qrels; 0 when R = 0. When fewer than k docs are retrieved the rest count as non-relevant.
Summary: mean over queries. Default cutoffs 5,10,15,20,30,100,200,500,1000.
Source: trec_eval m_map_cut.c.`,
  defaults: DEFAULT_CUTOFFS,
  perQuery(j, cutoffs, opts) {
    const n = cutoffs.length;
    const out = new Array<number>(n).fill(0);
    if (j.numRel === 0) return out;
    let ci = 0;
    let relSoFar = 0;
    let sum = 0.0;
    for (let i = 0; i < j.numRet; i++) {
      if (i === cutoffs[ci]) {
        out[ci] = sum / j.numRel;
        if (++ci === n) return out;
      }
      if ((j.rels[i] as number) >= opts.relevanceLevel) {
        relSoFar++;
        sum += relSoFar / (i + 1);
      }
    }
    while (ci < n) out[ci++] = sum / j.numRel;
    return out;
  },
});
