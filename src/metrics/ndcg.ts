import { RgateError } from '../core/errors.js';
import type { JudgedRanking, RankingMeasure } from './_types.js';

/** A gain table `-m ndcg.1=3,2=9,4=4.5`: grade -> gain; grades not listed gain their own value. */
export interface GainParams {
  /** pairs in the order given; `text` is printed in the measure name (ndcg_1=3,2=9,4=4.5) */
  pairs: { level: string; gain: number }[];
  text: string;
}

interface RelGain {
  level: number;
  gain: number;
  numAtLevel: number;
}

/** trec_eval gain_init.c setup_gains: listed levels first, then the missing levels 0..max with gain = level. */
function setupGains(j: JudgedRanking, params: GainParams): RelGain[] {
  const gains: RelGain[] = [];
  for (const p of params.pairs) {
    if (!/^[+-]?\d+$/.test(p.level)) continue; // valid_int: other names are ignored, as in trec_eval
    gains.push({ level: Number(p.level), gain: p.gain, numAtLevel: 0 });
  }
  for (let i = 0; i < j.numRelLevels; i++) {
    const g = gains.find((x) => x.level === i);
    if (g) g.numAtLevel = j.relLevels[i] ?? 0;
    else gains.push({ level: i, gain: i, numAtLevel: j.relLevels[i] ?? 0 });
  }
  // comp_rel_gain returns (int)(gain1 - gain2): gains closer than 1 compare equal. glibc's qsort is a
  // stable merge sort here, so a stable sort with the same truncated comparison reproduces its order.
  gains.sort((a, b) => Math.trunc(a.gain - b.gain));
  return gains;
}

function getGain(level: number, gains: readonly RelGain[]): number {
  for (const g of gains) if (g.level === level) return g.gain;
  return 0.0;
}

/** nDCG over the whole ranking with an optional gain table (trec_eval m_ndcg.c). */
export const ndcg: RankingMeasure<GainParams> = {
  id: 'ndcg',
  kind: 'float',
  help: `Normalized Discounted Cumulative Gain over the whole ranking (Jarvelin & Kekalainen, ACM TOIS
20(4) 2002, as trec_eval computes it).
Per query: DCG = sum over ranks i of gain(grade_i) / log2(i + 1); nDCG = DCG / IDCG, IDCG = the DCG of
the judged docs sorted by gain. Gains default to the grade; -m ndcg.1=3,2=9 sets grade 1 -> 3 and
grade 2 -> 9 (other grades keep gain = grade; gains may be 0 or negative). Not affected by -l.
Summary: mean over queries. Source: trec_eval m_ndcg.c, gain_init.c.`,
  defaults: { pairs: [], text: '' },
  defaultParamText: '',
  parseParams(text) {
    const pairs = text.split(',').map((p) => {
      const m = /^([^=]+)=(.*)$/.exec(p.trim());
      const gain = m ? Number(m[2]) : NaN;
      if (!m || !Number.isFinite(gain)) {
        throw new RgateError('usage', `-m ndcg.${text}: "${p}" is not grade=gain`, 'e.g. -m ndcg.1=3,2=9');
      }
      return { level: m[1]!.trim(), gain };
    });
    return { pairs, text };
  },
  names: (p) => [p.text ? `ndcg_${p.text}` : 'ndcg'],
  perQuery(j, params) {
    const gains = setupGains(j, params);
    let resultsDcg = 0.0;
    let idealDcg = 0.0;
    let curLevel = gains.length - 1;
    let idealGain = curLevel >= 0 ? gains[curLevel]!.gain : 0.0;
    let numAtLevel = 0;
    let i = 0;
    for (; i < j.numRet && idealGain > 0.0; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
      numAtLevel++;
      while (curLevel >= 0 && numAtLevel > gains[curLevel]!.numAtLevel) {
        numAtLevel = 1;
        curLevel--;
        idealGain = curLevel >= 0 ? gains[curLevel]!.gain : 0.0;
      }
      if (idealGain > 0.0) idealDcg += idealGain / Math.log2(i + 2);
    }
    for (; i < j.numRet; i++) {
      const rg = getGain(j.rels[i] as number, gains);
      if (rg !== 0) resultsDcg += rg / Math.log2(i + 2);
    }
    while (idealGain > 0.0) {
      numAtLevel++;
      while (curLevel >= 0 && numAtLevel > gains[curLevel]!.numAtLevel) {
        numAtLevel = 1;
        curLevel--;
        idealGain = curLevel >= 0 ? gains[curLevel]!.gain : 0.0;
      }
      if (idealGain > 0.0) idealDcg += idealGain / Math.log2(i + 2);
      i++;
    }
    return [idealDcg > 0.0 ? resultsDcg / idealDcg : 0];
  },
  aggregate: 'mean',
  printPerQuery: true,
};
