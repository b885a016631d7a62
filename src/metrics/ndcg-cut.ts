import { defineCutoffMeasure } from './_cutoff-measure.js';
import { DEFAULT_CUTOFFS } from './_params.js';

/** nDCG at cutoffs with gain = grade (trec_eval m_ndcg_cut.c). */
export const ndcgCut = defineCutoffMeasure({
  id: 'ndcg_cut',
  help: `nDCG at cutoffs k (Jarvelin & Kekalainen 2002), gain = the qrels grade, as trec_eval computes it.
Per query: DCG@k = sum_{i=1..k} grade_i / log2(i + 1) over docs with grade > 0; IDCG@k = the same over
the judged grades sorted descending; nDCG@k = DCG@k / IDCG@k (0 when IDCG@k = 0). Not affected by -l.
Summary: mean over queries. Default cutoffs 5,10,15,20,30,100,200,500,1000.
Source: trec_eval m_ndcg_cut.c.`,
  defaults: DEFAULT_CUTOFFS,
  perQuery(j, cutoffs) {
    const n = cutoffs.length;
    const out = new Array<number>(n).fill(0);
    let ci = 0;
    let sum = 0.0;
    const rels = j.rels;
    let i = 0;
    for (; i < j.numRet; i++) {
      if (i === cutoffs[ci]) {
        out[ci] = sum;
        if (++ci === n) break;
      }
      const gain = rels[i] as number;
      if (gain > 0) sum += gain / Math.log2(i + 2);
    }
    while (ci < n) out[ci++] = sum;
    // ideal DCG, normalising each cutoff's DCG as the ideal ranking reaches it
    ci = 0;
    let curLvl = j.numRelLevels - 1;
    let lvlCount = 0;
    let ideal = 0.0;
    for (i = 0; ; i++) {
      lvlCount++;
      while (curLvl > 0 && lvlCount > (j.relLevels[curLvl] ?? 0)) {
        curLvl--;
        lvlCount = 1;
      }
      if (curLvl <= 0) break;
      if (i === cutoffs[ci]) {
        if (ideal > 0.0) out[ci] = (out[ci] as number) / ideal;
        if (++ci === n) break;
      }
      ideal += curLvl / Math.log2(i + 2);
    }
    while (ci < n) {
      if (ideal > 0.0) out[ci] = (out[ci] as number) / ideal;
      ci++;
    }
    return out;
  },
});
