import { RgateError } from '../core/errors.js';
import {
  byteStringToText,
  compareRunDocnos,
  type DocTable,
  type Qrels,
  type QrelsQuery,
  type RunQuery,
  type TrecRun,
} from '../trec/index.js';
import {
  REL_NONPOOL,
  REL_UNJUDGED,
  type AggregateContext,
  type JudgedRanking,
  type MeasureSpec,
} from './_types.js';
import { rankByBuckets } from './_rank-buckets.js';

export interface TrecEvalOptions {
  /** grade at or above which a document is relevant (-l, default 1) */
  relevanceLevel: number;
  /** -c: average over every qrels query; a query without results scores 0 */
  averageComplete: boolean;
  /** -M: keep only the top n of each query after sorting */
  maxDepth?: number;
  /** -N: documents in the collection (utility's d count); 0 when not given, as in trec_eval */
  numDocsInCollection?: number;
  /** -J was applied to the run (judgedOnly): it removes -c's placeholder ranking too */
  judgedOnly?: boolean;
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
  const ev = new TrecEvaluator(qrels, specs, opts);
  for (const qid of qrels.qids) {
    const rq = run.byQid.get(qid);
    if (rq) ev.query(run, rq);
  }
  return ev.finish(run.runId);
}

/**
 * evaluateTrec one query at a time, in any order: `rgate score` measures a run grouped by query as
 * it reads it (run-stream.ts), each query's results in a buffer that is then reused. Values are
 * kept per qrels query and put in trec_eval's order (and summed in it) by finish().
 */
export class TrecEvaluator {
  private readonly judge: Judge;
  private readonly index = new Map<string, number>();
  private readonly values: (QueryValues | undefined)[];

  constructor(
    private readonly qrels: Qrels,
    private readonly specs: readonly MeasureSpec[],
    private readonly opts: TrecEvalOptions,
  ) {
    this.judge = new Judge(qrels.docs);
    qrels.qids.forEach((qid, i) => this.index.set(qid, i));
    this.values = new Array<QueryValues | undefined>(qrels.qids.length);
    this.hasText = specs.some((s) => s.measure.kind === 'text');
    this.noText = specs.map(() => NONE);
  }

  private readonly hasText: boolean;
  /** every query's text when no measure is a text measure (shared, never written) */
  private readonly noText: string[][];

  /** Measure run query rq (ignored when the qrels do not judge it); its entries may be reused after. */
  query(run: TrecRun, rq: RunQuery): void {
    const qi = this.index.get(rq.qid);
    if (qi === undefined) return;
    this.values[qi] = this.measure(this.qrels.byQid.get(rq.qid)!, run, rq);
  }

  private measure(q: QrelsQuery, run: TrecRun, rq: RunQuery | undefined): QueryValues {
    const j = this.judge.judge(q, run, rq, this.opts);
    const { specs } = this;
    // every query's values are kept to the end: as few arrays as they need (a -q -m all_trec
    // report keeps ~90 a query), the empty ones shared (never written)
    const values = new Array<number[]>(specs.length);
    const text = this.hasText ? new Array<string[]>(specs.length) : this.noText;
    for (let si = 0; si < specs.length; si++) {
      const s = specs[si]!;
      const m = s.measure;
      if (m.kind === 'text') {
        values[si] = NONE;
        text[si] = m.perQueryText(j, s.params, this.opts);
      } else {
        values[si] = m.perQuery(j, s.params, this.opts);
        if (this.hasText) text[si] = NONE;
      }
    }
    return { qid: q.qid, values, text, inRun: rq !== undefined };
  }

  /** The result: queries in trec_eval's order (under -c the unanswered ones too), the summary. */
  finish(runId: string): TrecEvalResult {
    const { qrels, specs, opts } = this;
    const queries: QueryValues[] = [];
    for (let qi = 0; qi < qrels.qids.length; qi++) {
      let v = this.values[qi];
      if (!v && opts.averageComplete)
        v = this.measure(qrels.byQid.get(qrels.qids[qi]!)!, EMPTY_RUN, undefined);
      if (v) queries.push(v);
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
        const agg = m.aggregate;
        if (agg === 'sum' || agg === 'mean') {
          // summed in the queries' order, as trec_eval does
          let sum = 0;
          for (const q of queries) sum += q.values[si]![ni]!;
          return agg === 'sum' ? sum : sum / numQueries;
        }
        return agg(
          queries.map((q) => q.values[si]![ni]!),
          ctx,
        );
      });
    });
    return { runId, specs: specs.slice(), queries, summary, numQueries };
  }
}

/** The values of a text measure, the text of the others: empty, shared (see measure). */
const NONE = Object.freeze([]) as unknown as never[];

/** The run a query without results is judged against (-c): Judge reads none of it. */
const EMPTY_RUN: TrecRun = {
  runId: '',
  qids: [],
  byQid: new Map(),
  lines: 0,
  scores: new Float64Array(0),
  hashes: new Int32Array(0),
  docOff: new Int32Array(0),
  docLen: new Int32Array(0),
  lineOf: new Int32Array(0),
  arena: new Uint8Array(0),
};

/**
 * trec_eval 10 without -c: its main loop walks the qrels and stops at a query the run has no line
 * for (trec_eval.c: "result qid '<qid>' not found in qrels", exit 4; the qid is the qrels query's).
 * `rgate score` stops too, before printing anything, naming the first such query in trec_eval's
 * order (qids by bytes) and how many there are. (evaluateTrec itself skips them, as trec_eval 9 did.)
 */
export function refuseUnansweredQueries(
  qrels: Qrels,
  run: { byQid: { has(qid: string): boolean } },
  labels: { qrels: string; run: string },
): void {
  let first: string | undefined;
  let count = 0;
  for (const qid of qrels.qids) {
    if (run.byQid.has(qid)) continue;
    first ??= qid;
    count++;
  }
  if (first === undefined) return;
  const more = count > 1 ? ` (and ${count - 1} more judged quer${count === 2 ? 'y' : 'ies'})` : '';
  throw new RgateError(
    'input_invalid',
    `query ${byteStringToText(first)} is judged in ${labels.qrels} but has no line in ${labels.run}${more}`,
    `pass -c to score it 0 and average over every judged query; trec_eval 10 stops here too ("result qid '${byteStringToText(first)}' not found in qrels", exit 4)`,
  );
}

/**
 * Ranks and judges one query (trec_eval form_res_rels.c). A query has ~10-1000 judgments, so they go
 * into a small hash table keyed by the docno hash the run parser already computed: looking up a
 * retrieved document touches a few cache lines, and its bytes are compared only on a hash match.
 * Only the judged results are placed (see rankJudged): the rest are REL_NONPOOL at any rank.
 */
export class Judge {
  private table = new Int32Array(64);
  /** per query: the entries found in the qrels, their grades and (after rankJudged) their ranks */
  private matched = new Int32Array(64);
  private matchedRel = new Int32Array(64);
  private matchedScore = new Float64Array(64);
  private rankOf = new Int32Array(65);
  private isMatched = new Uint8Array(1024);
  private relsBuf = new Int32Array(1024);

  constructor(private readonly docs: DocTable) {}

  judge(q: QrelsQuery, run: TrecRun, rq: RunQuery | undefined, opts: TrecEvalOptions): JudgedRanking {
    const docs = this.docs;
    const nq = q.docs.length;
    // a sixteenth full at most: nearly every result is not judged, and its lookup then mostly ends
    // at an empty first slot instead of comparing hashes (a branch the CPU cannot predict)
    let size = 16;
    while (size < nq * 16) size <<= 1;
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
    // one buffer for every query's grades: a JudgedRanking lives while its query is measured
    if (this.relsBuf.length < numRet)
      this.relsBuf = new Int32Array(Math.max(numRet, 2 * this.relsBuf.length));
    const rels = this.relsBuf.subarray(0, numRet);
    rels.fill(REL_NONPOOL);
    let numRelRet = 0;
    if (rq && numRet > 0) {
      const k = this.rankJudged(q, run, rq, mask);
      const { matchedRel, rankOf } = this;
      for (let i = 0; i < k; i++) {
        const r = rankOf[i] as number;
        if (r >= numRet) continue;
        const g = matchedRel[i] as number;
        const rel = g < 0 ? REL_UNJUDGED : g;
        rels[r] = rel;
        if (rel >= opts.relevanceLevel && rel >= 0) numRelRet++;
      }
    }
    const standIn = !rq && !opts.judgedOnly && (opts.maxDepth === undefined || opts.maxDepth > 0);
    return {
      qid: q.qid,
      rels,
      numRet,
      relLevels,
      numRelLevels,
      numRel,
      numRelRet,
      inRun: rq !== undefined,
      standIn,
    };
  }

  /**
   * Only the entries found in the qrels are placed: every other one is REL_NONPOOL wherever it lands,
   * so the ranking needs no full sort. A query listed by score finds their ranks by binary search
   * (rankListed); others count their entries into buckets by score (rankByBuckets). When the scores
   * bunch up, the k matched entries are sorted (trec_eval order: score descending, docno
   * descending; no two entries tie, duplicates being refused), each other entry is binary-searched
   * among them to count how many it precedes, and a matched entry's rank is its position among the
   * matched plus the others ranked above it: O(n log k) instead of O(n log n).
   * Returns k; matched/matchedRel/rankOf hold the entries, grades and 0-based ranks.
   */
  private rankJudged(q: QrelsQuery, run: TrecRun, rq: RunQuery, mask: number): number {
    const docs = this.docs;
    const table = this.table;
    const { hashes, docOff, docLen, arena, scores } = run;
    const n = rq.end - rq.start;
    if (this.isMatched.length < n) this.isMatched = new Uint8Array(n);
    const isMatched = this.isMatched;
    let k = 0;
    for (let e = rq.start; e < rq.end; e++) {
      const h = hashes[e] as number;
      let slot = h & mask;
      let found = -1;
      for (let j = table[slot] as number; j !== 0; j = table[(slot = (slot + 1) & mask)] as number) {
        const d = q.docs[j - 1] as number;
        const off = docOff[e] as number;
        if (docs.hashOf(d) === h && docs.equalsBytes(d, arena, off, off + (docLen[e] as number))) {
          found = j - 1;
          break;
        }
      }
      if (found < 0) {
        isMatched[e - rq.start] = 0;
        continue;
      }
      isMatched[e - rq.start] = 1;
      if (k === this.matched.length) this.growMatched();
      this.matched[k] = e;
      this.matchedRel[k] = q.rels[found] as number;
      k++;
    }
    if (k === 0) return 0;
    if (this.rankListed(run, rq, k)) return k;
    if (rankByBuckets(run, rq, this.matched, k, this.rankOf)) return k;
    const matched = this.matched;
    const matchedRel = this.matchedRel;
    // insertion sort of the matched entries (few per query, and in order when the run is: a TREC
    // pool's hundred judged results cost ~k^2/4 moves when shuffled; a fully judged query costs
    // O(k^2) at worst, so larger k goes through sortEntries)
    if (k > 256) sortEntries(run, matched, matchedRel, k);
    else {
      for (let i = 1; i < k; i++) {
        const x = matched[i] as number;
        const gx = matchedRel[i] as number;
        const sx = scores[x] as number;
        let j = i - 1;
        while (j >= 0) {
          const y = matched[j] as number;
          const sy = scores[y] as number;
          if (sx < sy || (sx === sy && compareRunDocnos(run, x, y) < 0)) break;
          matched[j + 1] = y;
          matchedRel[j + 1] = matchedRel[j] as number;
          j--;
        }
        matched[j + 1] = x;
        matchedRel[j + 1] = gx;
      }
    }
    // the matched scores padded with -Infinity to a power of two above k (the search below counts
    // up to width - 1)
    let width = 2;
    while (width <= k) width <<= 1;
    if (this.matchedScore.length < width) this.matchedScore = new Float64Array(width);
    const ms = this.matchedScore;
    for (let i = 0; i < k; i++) ms[i] = scores[matched[i] as number] as number;
    ms.fill(-Infinity, k, width);
    // above[p]: unmatched entries ranked after exactly p matched entries
    const above = this.rankOf;
    above.fill(0, 0, k + 1);
    for (let e = rq.start; e < rq.end; e++) {
      if (isMatched[e - rq.start] === 1) continue;
      const se = scores[e] as number;
      // how many matched entries score above e: the same steps whatever the comparisons say, each
      // adding its half or nothing without a branch (a shuffled query's results land anywhere, and a
      // branch per step was a coin toss for the CPU: this search took ~2.5x as long)
      let lo = 0;
      for (let half = width >> 1; half > 0; half >>= 1) lo += half & -+((ms[lo + half - 1] as number) > se);
      // then the matched entries tied with it whose docno is larger (tied ones are in docno order)
      while (lo < k && ms[lo] === se && compareRunDocnos(run, matched[lo] as number, e) > 0) lo++;
      above[lo]!++;
    }
    // rank of matched[i] = i + the unmatched entries ranked above it (those after <= i matched)
    let before = 0;
    for (let i = 0; i < k; i++) {
      before += above[i] as number;
      above[i] = i + before;
    }
    return k;
  }

  /**
   * Ranks of the k matched entries of a query listed by descending score: the results scoring above
   * a matched entry come before it in the list (a binary search finds how many), and of those tied
   * with it, the ones with a larger docno rank above it. O(k log n) instead of a pass over every
   * result; false (nothing ranked) when the results are not in that order (a shuffled query stops at
   * its first rise) or the tied results to compare outnumber the query's results.
   */
  private rankListed(run: TrecRun, rq: RunQuery, k: number): boolean {
    const { scores } = run;
    const { matched, rankOf } = this;
    for (let e = rq.start + 1; e < rq.end; e++)
      if ((scores[e] as number) > (scores[e - 1] as number)) return false;
    let budget = rq.end - rq.start;
    for (let i = 0; i < k; i++) {
      const m = matched[i] as number;
      const sm = scores[m] as number;
      let lo = rq.start;
      let hi = rq.end;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((scores[mid] as number) > sm) lo = mid + 1;
        else hi = mid;
      }
      let rank = lo - rq.start;
      for (let p = lo; p < rq.end && scores[p] === sm; p++) {
        if (p !== m && compareRunDocnos(run, p, m) > 0) rank++;
        if (--budget < 0) return false;
      }
      rankOf[i] = rank;
    }
    return true;
  }

  private growMatched(): void {
    const n = this.matched.length * 2;
    const m = new Int32Array(n);
    m.set(this.matched);
    this.matched = m;
    const r = new Int32Array(n);
    r.set(this.matchedRel);
    this.matchedRel = r;
    this.matchedScore = new Float64Array(n);
    this.rankOf = new Int32Array(n + 1);
  }
}

/**
 * Positions of a query's results in trec_eval order: score descending, ties by docno descending
 * (byte order); the rank column plays no part. Runs are usually written nearly in this order, so a
 * check-then-insertion-sort beats a general sort; a badly shuffled query falls back to Array.sort.
 * @internal exported for its tests
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

/** Sort entries (and their grades alongside) into trec_eval order: a query with many judged results. */
function sortEntries(run: TrecRun, entries: Int32Array, grades: Int32Array, k: number): void {
  if (sortIdx.length < k) sortIdx = new Int32Array(2 * k);
  const idx = sortIdx.subarray(0, k);
  for (let i = 0; i < k; i++) idx[i] = i;
  const s = run.scores;
  const before = (a: number, b: number): boolean => {
    const ea = entries[a] as number;
    const eb = entries[b] as number;
    const sa = s[ea] as number;
    const sb = s[eb] as number;
    if (sa !== sb) return sa > sb;
    return compareRunDocnos(run, ea, eb) > 0;
  };
  mergeSort(idx, before);
  // plain loops: Int32Array.from with a mapping function goes through the iterator protocol
  if (sortCopy.length < 2 * k) sortCopy = new Int32Array(4 * k);
  for (let i = 0; i < k; i++) {
    const j = idx[i] as number;
    sortCopy[i] = entries[j] as number;
    sortCopy[k + i] = grades[j] as number;
  }
  for (let i = 0; i < k; i++) {
    entries[i] = sortCopy[i] as number;
    grades[i] = sortCopy[k + i] as number;
  }
}

let sortIdx = new Int32Array(0);
let sortCopy = new Int32Array(0);
