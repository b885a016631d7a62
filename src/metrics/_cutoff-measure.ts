import { RgateError } from '../core/errors.js';
import { cutoffNames, parseCutoffs } from './_params.js';
import type { EvalOptions, JudgedRanking, RankingMeasure } from './_types.js';

/**
 * trec_eval's "value at cutoffs" loop (m_P.c, m_recall.c, m_success.c, m_unjudged.c): walk the ranking
 * counting hits; at each cutoff reached record value(hits, cutoff); cutoffs beyond the ranking see the
 * final count (non-hits fill the rest).
 */
export function cutoffLoop(
  j: JudgedRanking,
  cutoffs: readonly number[],
  isHit: (rel: number) => boolean,
  value: (hits: number, cutoff: number) => number,
): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  let ci = 0;
  let hits = 0;
  const rels = j.rels;
  for (let i = 0; i < j.numRet; i++) {
    if (i === cutoffs[ci]) {
      out[ci] = value(hits, i);
      if (++ci === cutoffs.length) return out;
    }
    if (isHit(rels[i] as number)) hits++;
  }
  while (ci < cutoffs.length) {
    out[ci] = value(hits, cutoffs[ci] as number);
    ci++;
  }
  return out;
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
