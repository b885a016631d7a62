import { elevenPtAvg } from './11pt-avg.js';
import { bpref } from './bpref.js';
import { gmMap } from './gm-map.js';
import { iprecAtRecall } from './iprec-at-recall.js';
import { judged } from './judged.js';
import { map } from './map.js';
import { mapCut } from './map-cut.js';
import { ndcgCut } from './ndcg-cut.js';
import { ndcg } from './ndcg.js';
import { numQ } from './num-q.js';
import { numRelRet } from './num-rel-ret.js';
import { numRel } from './num-rel.js';
import { numRet } from './num-ret.js';
import { precision } from './p.js';
import { recall } from './recall.js';
import { recipRank } from './recip-rank.js';
import { rprec } from './rprec.js';
import { rprecMult } from './rprec-mult.js';
import { setF } from './set-f.js';
import { setMap } from './set-map.js';
import { setP } from './set-p.js';
import { setRecall } from './set-recall.js';
import { setRelativeP } from './set-relative-p.js';
import { success } from './success.js';
import type { AnyRankingMeasure } from './_types.js';

/**
 * Every ranking measure, in trec_eval's print order (measures.c te_trec_measures[]); judged, which
 * trec_eval lacks, comes last. Adding a measure = one file + one line here (a test checks both).
 */
export const RANKING_MEASURES: readonly AnyRankingMeasure[] = [
  numQ,
  numRet,
  numRel,
  numRelRet,
  map,
  gmMap,
  rprec,
  bpref,
  recipRank,
  iprecAtRecall,
  precision,
  recall,
  rprecMult,
  elevenPtAvg,
  ndcg,
  ndcgCut,
  mapCut,
  success,
  setP,
  setRelativeP,
  setRecall,
  setMap,
  setF,
  judged,
];

/** trec_eval's named bundles, restricted to the measures rgate implements (plus runid). */
export const MEASURE_BUNDLES: Readonly<Record<string, readonly string[]>> = {
  official: [
    'runid',
    'num_q',
    'num_ret',
    'num_rel',
    'num_rel_ret',
    'map',
    'gm_map',
    'Rprec',
    'bpref',
    'recip_rank',
    'iprec_at_recall',
    'P',
  ],
  all_trec: [
    'runid',
    'num_q',
    'num_ret',
    'num_rel',
    'num_rel_ret',
    'map',
    'gm_map',
    'Rprec',
    'bpref',
    'recip_rank',
    'iprec_at_recall',
    'P',
    'recall',
    '11pt_avg',
    'ndcg',
    'Rprec_mult',
    'success',
    'map_cut',
    'ndcg_cut',
    'set_P',
    'set_recall',
    'set_relative_P',
    'set_map',
    'set_F',
  ],
};

export function findRankingMeasure(id: string): AnyRankingMeasure | undefined {
  return RANKING_MEASURES.find((m) => m.id === id);
}
