import { RgateError } from '../core/errors.js';
import { cutoffNames, parseCutoffs } from './_params.js';
import {
  REL_NONPOOL,
  REL_UNJUDGED,
  type EvalOptions,
  type JudgedRanking,
  type RankingMeasure,
} from './_types.js';

/** What a cutoff measure counts: results graded at least this, or results not judged (grade < 0). */
export type HitRule = number | 'unjudged';

/**
 * trec_eval's "value at cutoffs" loop (m_P.c, m_recall.c, m_success.c, m_unjudged.c): walk the ranking
 * counting hits; at each cutoff reached record value(hits, cutoff); cutoffs beyond the ranking see the
 * final count (non-hits fill the rest). The hits before each rank are counted once per query and
 * rule (P, recall, relative_P and success share one count), so each cutoff is a lookup: the same
 * counts, the same calls of `value`, without a call per rank through a function the measures share.
 */
export function cutoffLoop(
  j: JudgedRanking,
  cutoffs: readonly number[],
  hit: HitRule,
  value: (hits: number, cutoff: number) => number,
): number[] {
  const before = hitsBefore(j, hit);
  const out = new Array<number>(cutoffs.length).fill(0);
  // the loop's next rank: a cutoff is reached only at or after it (cutoffs in the order given)
  let next = 0;
  for (let ci = 0; ci < cutoffs.length; ci++) {
    const c = cutoffs[ci] as number;
    if (c >= next && c < j.numRet) {
      out[ci] = value(before[c] as number, c);
      next = c + 1;
      continue;
    }
    // never reached: this cutoff and the rest see the whole ranking's count
    for (; ci < cutoffs.length; ci++) out[ci] = value(before[j.numRet] as number, cutoffs[ci] as number);
  }
  return out;
}

/** per rule: the query counted last and its hits before each rank (index i: ranks 0..i-1) */
const counted = new Map<HitRule, { j: JudgedRanking | undefined; before: Int32Array }>();

function hitsBefore(j: JudgedRanking, hit: HitRule): Int32Array {
  let c = counted.get(hit);
  if (!c) counted.set(hit, (c = { j: undefined, before: new Int32Array(1024) }));
  if (c.j === j) return c.before;
  if (c.before.length < j.numRet + 1) c.before = new Int32Array(2 * (j.numRet + 1));
  const before = c.before;
  const rels = j.rels;
  let hits = 0;
  before[0] = 0;
  if (hit === 'unjudged') {
    for (let i = 0; i < j.numRet; i++) {
      const r = rels[i] as number;
      if (r === REL_NONPOOL || r === REL_UNJUDGED) hits++;
      before[i + 1] = hits;
    }
  } else {
    for (let i = 0; i < j.numRet; i++) {
      if ((rels[i] as number) >= hit) hits++;
      before[i + 1] = hits;
    }
  }
  c.j = j;
  return before;
}

export function defineCutoffMeasure(spec: {
  id: string;
  help: string;
  defaults: number[];
  perQuery: (j: JudgedRanking, cutoffs: number[], opts: EvalOptions) => number[];
}): RankingMeasure<number[]> {
  return {
    id: spec.id,
    help: spec.help,
    kind: 'float',
    defaults: spec.defaults,
    defaultParamText: spec.defaults.join(','),
    parseParams: (text) => parseCutoffs(spec.id, text),
    names: (cutoffs) => cutoffNames(spec.id, cutoffs),
    perQuery: spec.perQuery,
    aggregate: 'mean',
    printPerQuery: true,
  };
}

/** A measure without parameters yielding one value. */
export function defineSingleMeasure(spec: {
  id: string;
  help: string;
  kind?: 'int' | 'float';
  aggregate?: RankingMeasure['aggregate'];
  printPerQuery?: boolean;
  perQuery: (j: JudgedRanking, opts: EvalOptions) => number;
}): RankingMeasure<null> {
  return {
    id: spec.id,
    help: spec.help,
    kind: spec.kind ?? 'float',
    defaults: null,
    defaultParamText: '',
    parseParams: (text) => {
      if (text) throw new RgateError('usage', `-m ${spec.id}.${text}: ${spec.id} takes no parameters`);
      return null;
    },
    names: () => [spec.id],
    perQuery: (j, _p, opts) => [spec.perQuery(j, opts)],
    aggregate: spec.aggregate ?? 'mean',
    printPerQuery: spec.printPerQuery ?? true,
  };
}
