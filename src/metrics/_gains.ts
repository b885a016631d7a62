import { RgateError } from '../core/errors.js';
import type { JudgedRanking } from './_types.js';

/**
 * A gain table `-m ndcg.1=3,2=9,4=4.5` (trec_eval's name=value pairs, shared by ndcg, ndcg_rel, Rndcg,
 * G and rbp): grade -> gain; grades not listed gain their own value.
 */
export interface GainParams {
  /** pairs in the order given; `text` is printed in the measure name (ndcg_1=3,2=9,4=4.5) */
  pairs: { level: string; gain: number }[];
  text: string;
}

export interface RelGain {
  level: number;
  gain: number;
  numAtLevel: number;
}

export const NO_GAINS: GainParams = { pairs: [], text: '' };

/** Read `grade=gain,...`; `example` is shown in the error (e.g. "-m ndcg.1=3,2=9"). */
export function parseGainParams(id: string, text: string, example = `-m ${id}.1=3,2=9`): GainParams {
  const pairs = text.split(',').map((p) => {
    const m = /^([^=]+)=(.*)$/.exec(p.trim());
    const gain = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(gain)) {
      throw new RgateError('usage', `-m ${id}.${text}: "${p}" is not grade=gain`, `e.g. ${example}`);
    }
    return { level: m[1]!.trim(), gain };
  });
  return { pairs, text };
}

/**
 * trec_eval gain_init.c setup_gains: listed levels first, then the missing levels 0..max with gain = level.
 * The table depends only on the query's judgments and the parameters, and all_trec's dozen gain
 * measures ask for it with the same ones one after the other: the last table is kept (its users
 * only read it).
 */
export function setupGains(j: JudgedRanking, params: GainParams): readonly RelGain[] {
  if (j === last.j && params === last.params) return last.gains;
  const gains = makeGains(j, params);
  last = { j, params, gains };
  return gains;
}

let last: { j?: JudgedRanking; params?: GainParams; gains: readonly RelGain[] } = { gains: [] };

function makeGains(j: JudgedRanking, params: GainParams): RelGain[] {
  const gains: RelGain[] = [];
  // each listed level's first pair, as trec_eval's search of the table finds it: looked up, not
  // searched for each level (a grade of 100,000 made that 5 * 10^9 comparisons a query)
  const listed = new Map<number, RelGain>();
  for (const p of params.pairs) {
    if (!/^[+-]?\d+$/.test(p.level)) continue; // valid_int: other names are ignored, as in trec_eval
    const g = { level: Number(p.level), gain: p.gain, numAtLevel: 0 };
    gains.push(g);
    if (!listed.has(g.level)) listed.set(g.level, g);
  }
  for (let i = 0; i < j.numRelLevels; i++) {
    const g = listed.get(i);
    if (g) g.numAtLevel = j.relLevels[i] ?? 0;
    else gains.push({ level: i, gain: i, numAtLevel: j.relLevels[i] ?? 0 });
  }
  // comp_rel_gain returns (int)(gain1 - gain2): gains closer than 1 compare equal. glibc's qsort is a
  // stable merge sort here, so a stable sort with the same truncated comparison reproduces its order.
  gains.sort((a, b) => Math.trunc(a.gain - b.gain));
  return gains;
}

export function getGain(level: number, gains: readonly RelGain[]): number {
  for (const g of gains) if (g.level === level) return g.gain;
  return 0.0;
}

/**
 * The ideal ranking's gains one rank at a time (trec_eval's cur_level / num_at_level walk): the
 * judged documents by decreasing gain; 0 once they are used up or the gains stop being positive.
 */
export class IdealGains {
  private level: number;
  private numAtLevel = 0;
  /** gain of the ideal document at the current rank */
  gain: number;

  constructor(private readonly gains: readonly RelGain[]) {
    this.level = gains.length - 1;
    this.gain = this.level >= 0 ? gains[this.level]!.gain : 0.0;
  }

  /** move to the next rank */
  advance(): void {
    this.numAtLevel++;
    while (this.level >= 0 && this.numAtLevel > this.gains[this.level]!.numAtLevel) {
      this.numAtLevel = 1;
      this.level--;
      this.gain = this.level >= 0 ? this.gains[this.level]!.gain : 0.0;
    }
  }
}
