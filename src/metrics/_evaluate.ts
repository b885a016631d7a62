import { RgateError } from '../core/errors.js';
import {
  compareRunDocnos,
  type DocTable,
  type Qrels,
  type QrelsQuery,
  type RunQuery,
  type TrecRun,
} from '../trec/index.js';
import type { MeasureSpec } from './_spec.js';
import { REL_NONPOOL, REL_UNJUDGED, type AggregateContext, type JudgedRanking } from './_types.js';

export interface TrecEvalOptions {
  /** grade at or above which a document is relevant (-l, default 1) */
  relevanceLevel: number;
  /** -c: average over every qrels query; a query without results scores 0 */
  averageComplete: boolean;
  /** -M: keep only the top n of each query after sorting */
  maxDepth?: number;
}

export interface QueryValues {
  qid: string;
  /** values[specIndex][nameIndex] (empty for a text measure) */
  values: number[][];
  /** text[specIndex][nameIndex] for a text measure (relstring), empty for the others */
  text: string[][];
  /** false for a qrels query the run did not answer (only evaluated under -c) */
  inRun: boolean;
}

export interface TrecEvalResult {
  runId: string;
  specs: MeasureSpec[];
  /** evaluated queries in trec_eval's order (qids by bytes) */
  queries: QueryValues[];
  /** summary[specIndex][nameIndex] (empty for a text measure: it has no summary) */
  summary: number[][];
  numQueries: number;
}

/**
 * trec_eval's main loop: for each qrels query (byte order) that has results — or every qrels query
 * under -c — order the results, judge them, compute every measure; then average (or sum) in that same
 * query order so the floating-point sums match trec_eval's. Run queries without qrels are ignored.
 */
export function evaluateTrec(
  qrels: Qrels,
  run: TrecRun,
  specs: readonly MeasureSpec[],
  opts: TrecEvalOptions,
): TrecEvalResult {
  const docs = qrels.docs;
  const judge = new Judge(docs);
  const queries: QueryValues[] = [];
  const perSpec: number[][][] = specs.map((s) => s.names.map(() => [] as number[]));
  for (let qi = 0; qi < qrels.qids.length; qi++) {
    const qid = qrels.qids[qi]!;
    const rq = run.byQid.get(qid);
    if (!rq && !opts.averageComplete) continue;
    const j = judge.judge(qrels.byQid.get(qid)!, run, rq, opts);
    const values: number[][] = [];
    const text: string[][] = [];
    for (const s of specs) {
      const m = s.measure;
      values.push(m.kind === 'text' ? [] : m.perQuery(j, s.params, opts));
      text.push(m.kind === 'text' ? m.perQueryText(j, s.params, opts) : []);
    }
    values.forEach((vs, si) => vs.forEach((v, ni) => perSpec[si]![ni]!.push(v)));
    queries.push({ qid, values, text, inRun: rq !== undefined });
  }
  const numQueries = queries.length;
  if (numQueries === 0) {
    throw new RgateError(
      'input_invalid',
      'no query has both results in the run and judgments in the qrels',
      'check that the run and the qrels use the same query ids (or pass -c to score every qrels query)',
    );
  }
  const ctx: AggregateContext = {
    numQueries,
    averageComplete: opts.averageComplete,
    allQrelsGrades: function* () {
      for (const qid of qrels.qids) yield* qrels.byQid.get(qid)!.rels;
    },
  };
  const summary = specs.map((s, si) => {
    const m = s.measure;
    if (m.kind === 'text') return [];
    return s.names.map((_, ni) => {
      const vals = perSpec[si]![ni]!;
      const agg = m.aggregate;
      if (agg === 'sum' || agg === 'mean') {
        let sum = 0;
        for (const v of vals) sum += v;
        return agg === 'sum' ? sum : sum / numQueries;
      }
      return agg(vals, ctx);
    });
  });
  return { runId: run.runId, specs: specs.slice(), queries, summary, numQueries };
}

/**
 * Orders and judges one query (trec_eval form_res_rels.c). A query has ~10-1000 judgments, so they go
 * into a small hash table keyed by the docno hash the run parser already computed: looking up a
 * retrieved document touches a few cache lines, and its bytes are compared only on a hash match.
 */
export class Judge {
  private table = new Int32Array(64);
  private order = new Int32Array(0);

  constructor(private readonly docs: DocTable) {}

  judge(q: QrelsQuery, run: TrecRun, rq: RunQuery | undefined, opts: TrecEvalOptions): JudgedRanking {
    const docs = this.docs;
    const nq = q.docs.length;
    let size = 16;
    while (size < nq * 4) size <<= 1;
    if (this.table.length < size) this.table = new Int32Array(size);
    const table = this.table;
    table.fill(0, 0, size);
    const mask = size - 1;
    let maxRel = -1;
    for (let i = 0; i < nq; i++) {
      let slot = docs.hashOf(q.docs[i] as number) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = i + 1;
      const r = q.rels[i] as number;
      if (r > maxRel) maxRel = r;
    }
    const relLevels = new Array<number>(Math.max(0, maxRel + 1)).fill(0);
    for (let i = 0; i < nq; i++) {
      const r = q.rels[i] as number;
      if (r >= 0) relLevels[r]!++;
    }
    let numRelLevels = 0;
    let numRel = 0;
    for (let g = 0; g < relLevels.length; g++) {
      if (relLevels[g]) {
        numRelLevels = g + 1;
        if (g >= opts.relevanceLevel) numRel += relLevels[g]!;
      }
    }
    const total = rq ? rq.end - rq.start : 0;
    let numRet = total;
    if (opts.maxDepth !== undefined && numRet > opts.maxDepth) numRet = opts.maxDepth;
    if (this.order.length < total) this.order = new Int32Array(total);
    const rels = new Int32Array(numRet);
    let numRelRet = 0;
    if (rq && numRet > 0) {
      const order = sortRun(run, rq, this.order);
      const { hashes, docOff, docLen, arena } = run;
      for (let i = 0; i < numRet; i++) {
        const e = order[i] as number;
        const h = hashes[e] as number;
        let rel: number = REL_NONPOOL;
        let slot = h & mask;
        for (let j = table[slot] as number; j !== 0; j = table[(slot = (slot + 1) & mask)] as number) {
          const d = q.docs[j - 1] as number;
          const off = docOff[e] as number;
          if (docs.hashOf(d) === h && docs.equalsBytes(d, arena, off, off + (docLen[e] as number))) {
            const g = q.rels[j - 1] as number;
            rel = g < 0 ? REL_UNJUDGED : g;
            break;
          }
        }
        rels[i] = rel;
        if (rel >= opts.relevanceLevel && rel >= 0) numRelRet++;
      }
    }
    return { qid: q.qid, rels, numRet, relLevels, numRelLevels, numRel, numRelRet, inRun: rq !== undefined };
  }
}

/**
 * Positions of a query's results in trec_eval order: score descending, ties by docno descending
 * (byte order); the rank column plays no part. Runs are usually written nearly in this order, so a
 * check-then-insertion-sort beats a general sort; a badly shuffled query falls back to Array.sort.
 */
export function sortRun(run: TrecRun, rq: RunQuery, scratch?: Int32Array): Int32Array {
  const n = rq.end - rq.start;
  const order = scratch && scratch.length >= n ? scratch.subarray(0, n) : new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = rq.start + i;
  const s = run.scores;
  // before(a, b): entry a is ranked above entry b
  const before = (a: number, b: number): boolean => {
    const sa = s[a] as number;
    const sb = s[b] as number;
    if (sa !== sb) return sa > sb;
    return compareRunDocnos(run, a, b) > 0;
  };
  let sorted = true;
  for (let i = rq.start + 1; i < rq.end; i++) {
    const sa = s[i - 1] as number;
    const sb = s[i] as number;
    if (sa > sb) continue;
    if (sa < sb || compareRunDocnos(run, i - 1, i) <= 0) {
      sorted = false;
      break;
    }
  }
  if (sorted) return order;
  // insertion sort, comparisons inlined: ties are short runs, so this is ~n comparisons
  let moves = 0;
  const budget = 8 * n + 64;
  for (let i = 1; i < n; i++) {
    const x = order[i] as number;
    const sx = s[x] as number;
    let k = i - 1;
    while (k >= 0) {
      const y = order[k] as number;
      const sy = s[y] as number;
      if (sx < sy || (sx === sy && compareRunDocnos(run, x, y) <= 0)) break;
      order[k + 1] = y;
      k--;
      if (++moves > budget) break;
    }
    order[k + 1] = x;
    if (moves > budget) {
      for (let i2 = 0; i2 < n; i2++) order[i2] = rq.start + i2;
      return mergeSort(order, before);
    }
  }
  return order;
}

let mergeScratch = new Int32Array(0);

/**
 * Stable bottom-up merge sort of entry positions (a shuffled query: runs written in no order). The
 * order is total but for identical (score, docno) pairs, which keep file order, as Array.sort's
 * stable sort did; typed arrays and no per-comparison array allocation make it several times faster.
 */
function mergeSort(order: Int32Array, before: (a: number, b: number) => boolean): Int32Array {
  const n = order.length;
  if (mergeScratch.length < n) mergeScratch = new Int32Array(n);
  let src: Int32Array = order;
  let dst: Int32Array = mergeScratch.subarray(0, n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = src[i] as number;
        const b = src[j] as number;
        // take from the right only when it is strictly before: equal pairs keep their order
        if (before(b, a)) {
          dst[k++] = b;
          j++;
        } else {
          dst[k++] = a;
          i++;
        }
      }
      while (i < mid) dst[k++] = src[i++] as number;
      while (j < hi) dst[k++] = src[j++] as number;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== order) order.set(src);
  return order;
}
