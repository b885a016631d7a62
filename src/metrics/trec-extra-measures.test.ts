import { describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { DocTable, parseQrels, parseRun } from '../trec/index.js';
import { evaluateTrec } from './_evaluate.js';
import { formatFixed4 } from './_format.js';
import { parseMeasureArgs } from './_spec.js';

/**
 * A seeded random collection: six queries, graded qrels with grade -1 (pooled, unjudged) and 12,
 * query q2 without a relevant doc, retrieved docs partly outside the qrels, many tied scores.
 */
function randomCollection(seed: number): { qrels: string; run: string } {
  const rng = createPrng(seed);
  const grades = [-1, 0, 0, 0, 1, 1, 2, 3, 12];
  let qrels = '';
  let run = '';
  for (let q = 0; q < 6; q++) {
    const judged = new Set<number>();
    const nj = 1 + rng.int(20);
    for (let k = 0; k < nj; k++) judged.add(rng.int(30));
    const noRel = q === 2;
    for (const d of judged)
      qrels += `q${q} 0 d${d} ${noRel ? rng.int(2) - 1 : grades[rng.int(grades.length)]}\n`;
    const retrieved = new Set<number>();
    const nr = 1 + rng.int(25);
    for (let k = 0; k < nr; k++) retrieved.add(rng.int(30));
    let rank = 1;
    for (const d of retrieved) run += `q${q} Q0 d${d} ${rank++} ${rng.int(6)} r\n`;
  }
  return { qrels, run };
}

const MEASURES = [
  'infAP',
  'gm_bpref',
  'utility.1,-2,0.5,0.25',
  'binG',
  'G',
  'ndcg_rel',
  'Rndcg',
  'relative_P.5,10',
  'num_nonrel_judged_ret',
  'unj',
  'yaap',
];

/**
 * Summary lines printed by trec_eval 10.0 for randomCollection(7):
 * `trec_eval -l<level> -m infAP -m gm_bpref ... q r` (the measures above, each as its own -m).
 */
const TREC_EVAL: Record<number, Record<string, string>> = {
  1: {
    infAP: '0.0465',
    gm_bpref: '0.0003',
    'utility_1,-2,0.5,0.25': '-19.4167',
    binG: '0.0706',
    G: '0.0423',
    ndcg_rel: '0.0592',
    Rndcg: '0.0334',
    relative_P_5: '0.0333',
    relative_P_10: '0.1111',
    num_nonrel_judged_ret: '4',
    yaap: '-0.9940',
    unj_5: '0.7667',
    unj_10: '0.6667',
    unj_20: '0.4250',
  },
  2: {
    infAP: '0.0373',
    gm_bpref: '0.0001',
    'utility_1,-2,0.5,0.25': '-20.0417',
    binG: '0.0601',
    G: '0.0423',
    ndcg_rel: '0.0592',
    Rndcg: '0.0334',
    relative_P_5: '0.0333',
    relative_P_10: '0.0556',
    num_nonrel_judged_ret: '5',
    yaap: '-0.8199',
    unj_5: '0.7667',
    unj_10: '0.6667',
    unj_20: '0.4250',
  },
};

describe('infAP, gm_bpref, utility, binG, G, ndcg_rel, Rndcg, relative_P, unj, yaap vs trec_eval 10.0', () => {
  for (const level of [1, 2]) {
    it(`random collection (seed 7), -l${level}: every summary value as trec_eval prints it`, () => {
      const { qrels, run } = randomCollection(7);
      const q = parseQrels(Buffer.from(qrels), 'q', new DocTable());
      const r = parseRun(Buffer.from(run), 'r');
      const res = evaluateTrec(q, r, parseMeasureArgs(MEASURES).specs, {
        relevanceLevel: level,
        averageComplete: false,
      });
      const ours: Record<string, string> = {};
      res.specs.forEach((s, si) =>
        s.names.forEach((n, ni) => {
          const v = res.summary[si]![ni]!;
          ours[n] = s.measure.kind === 'int' ? String(v) : formatFixed4(v);
        }),
      );
      expect(ours).toEqual(TREC_EVAL[level]);
    });
  }
});
