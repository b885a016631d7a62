import { elevenPtAvg } from './11pt-avg.js';
import { binG } from './bing.js';
import { dcg } from './dcg.js';
import { bpref } from './bpref.js';
import { G } from './g.js';
import { gmBpref } from './gm-bpref.js';
import { gmMap } from './gm-map.js';
import { infAP } from './infap.js';
import { idealDcg } from './ideal-dcg.js';
import { iprecAtRecall } from './iprec-at-recall.js';
import { judged } from './judged.js';
import { map } from './map.js';
import { mapCut } from './map-cut.js';
import { ndcgCut } from './ndcg-cut.js';
import { ndcgRel } from './ndcg-rel.js';
import { ndcg } from './ndcg.js';
import { numNonrelJudgedRet } from './num-nonrel-judged-ret.js';
import { numQ } from './num-q.js';
import { numRelRet } from './num-rel-ret.js';
import { numRel } from './num-rel.js';
import { numRet } from './num-ret.js';
import { precision } from './p.js';
import { rbp } from './rbp.js';
import { rbpResid } from './rbp-resid.js';
import { recall } from './recall.js';
import { recipRank } from './recip-rank.js';
import { relativeP } from './relative-p.js';
import { relstring } from './relstring.js';
import { Rndcg } from './rndcg.js';
import { rprec } from './rprec.js';
import { rprecMult } from './rprec-mult.js';
import { setF } from './set-f.js';
import { setMap } from './set-map.js';
import { setP } from './set-p.js';
import { setRecall } from './set-recall.js';
import { setRelativeP } from './set-relative-p.js';
import { success } from './success.js';
import { unj } from './unj.js';
import { utility } from './utility.js';
import { yaap } from './yaap.js';
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
  relstring,
  recall,
  infAP,
  gmBpref,
  rprecMult,
  utility,
  elevenPtAvg,
  binG,
  G,
  dcg,
  idealDcg,
  ndcg,
  ndcgRel,
  Rndcg,
  ndcgCut,
  mapCut,
  relativeP,
  success,
  setP,
  setRelativeP,
  setRecall,
  setMap,
  setF,
  numNonrelJudgedRet,
  yaap,
  rbp,
  rbpResid,
  unj,
  judged,
];

/** trec_eval 10's preference measures, in its order (they need -R prefs or -R qrels_prefs). */
const PREFS_MEASURES: readonly string[] = [
  'prefs_num_prefs_poss',
  'prefs_num_prefs_ful',
  'prefs_num_prefs_ful_ret',
  'prefs_simp',
  'prefs_pair',
  'prefs_avgjg',
  'prefs_avgjg_Rnonrel',
  'prefs_simp_ret',
  'prefs_pair_ret',
  'prefs_avgjg_ret',
  'prefs_avgjg_Rnonrel_ret',
  'prefs_simp_imp',
  'prefs_pair_imp',
  'prefs_avgjg_imp',
];

/** trec_eval 10's judgment-group measures (they need -R qrels_jg). */
const JUDGMENT_GROUP_MEASURES: readonly string[] = ['map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg'];

/**
 * trec_eval 10's measure nicknames (measures.c te_trec_measure_nicknames), in its order, each list
 * exactly as trec_eval has it. `-m <nickname>` requests every measure of its list; the printed order
 * is the registry's (trec_eval's), not the list's. all_prefs, prefs and qrels_jg name measures that
 * need preference judgments or judgment groups (NOT_OFFERED below): parseMeasureArgs refuses them.
 */
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
  set: [
    'runid',
    'num_q',
    'num_ret',
    'num_rel',
    'num_rel_ret',
    'utility',
    'set_P',
    'set_recall',
    'set_relative_P',
    'set_map',
    'set_F',
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
    'relstring',
    'recall',
    'unj',
    'rbp',
    'rbp_resid',
    'infAP',
    'gm_bpref',
    'utility',
    '11pt_avg',
    'ndcg',
    'relative_P',
    'Rprec_mult',
    'success',
    'map_cut',
    'ndcg_cut',
    'ndcg_rel',
    'Rndcg',
    'binG',
    'G',
    'set_P',
    'set_recall',
    'set_relative_P',
    'set_map',
    'set_F',
    'num_nonrel_judged_ret',
  ],
  all_prefs: ['runid', 'num_q', ...PREFS_MEASURES],
  // trec_eval's `prefs` nickname: the first six preference measures
  prefs: ['runid', 'num_q', ...PREFS_MEASURES.slice(0, 6)],
  qrels_jg: ['runid', 'num_q', ...JUDGMENT_GROUP_MEASURES],
};

const PREFS = 'preference judgments (trec_eval -R prefs or -R qrels_prefs)';
const JUDGMENT_GROUPS = 'judgment groups (trec_eval -R qrels_jg)';

/**
 * trec_eval 10's measures that rgate does not compute, in trec_eval's order, each with the qrels
 * format it needs: rgate reads qrels only (-R qrels), and with those trec_eval cannot compute them
 * either (it stops: "Can't calculate measure", exit 4).
 */
export const NOT_OFFERED: readonly { id: string; needs: string }[] = [
  ...PREFS_MEASURES.map((id) => ({ id, needs: PREFS })),
  ...JUDGMENT_GROUP_MEASURES.map((id) => ({ id, needs: JUDGMENT_GROUPS })),
];

export function findRankingMeasure(id: string): AnyRankingMeasure | undefined {
  return RANKING_MEASURES.find((m) => m.id === id);
}
