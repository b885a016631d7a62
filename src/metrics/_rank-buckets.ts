/**
 * Ranks of a query's judged results among all its results without sorting (Judge.rankJudged): the
 * results are counted into buckets by score, and a judged result's rank is the results in the
 * buckets above its own plus those of its own bucket ranked above it (trec_eval order: score
 * descending, docno descending).
 */
import { compareRunDocnos, type RunQuery, type TrecRun } from '../trec/index.js';

/** buckets per result: about one result a bucket when the scores spread evenly */
const BUCKETS_PER_RESULT = 1;

/**
 * The comparisons in the judged results' buckets may reach this many a result before giving up
 * (scores bunched in a few buckets: many ties, or a few outliers stretching the range).
 */
const MAX_SHARED_PER_RESULT = 4;

let hist = new Int32Array(0);
/** per bucket: the first judged result in it (index into `matched`, -1 none), then a list */
let head = new Int32Array(0);
let nextInBucket = new Int32Array(0);

/**
 * Sets rankOf[i] to the 0-based rank of run entry matched[i] (i < k) among entries [rq.start,
 * rq.end), and returns true; false (rankOf untouched) when the scores are not all finite or
 * bunch up (the caller sorts instead). Exact whatever the buckets: the bucket of a score is
 * monotonic in it (a higher score never lands in a lower bucket, equal scores share one), so only
 * results sharing a judged result's bucket are compared with it, score then docno.
 *
 * A few steps a result where binary-searching each among the sorted judged took ~log2(k)
 * dependent loads, after sorting those (a shuffled run of 2,500 queries of 1,400 results, 150
 * judged each: ranking took 210 ms of CPU, now ~130; 8 judged each: 100 -> 80).
 */
export function rankByBuckets(
  run: TrecRun,
  rq: RunQuery,
  matched: Int32Array,
  k: number,
  rankOf: Int32Array,
): boolean {
  const { scores } = run;
  const { start, end } = rq;
  const n = end - start;
  let top = -Infinity;
  let bottom = Infinity;
  for (let e = start; e < end; e++) {
    const s = scores[e] as number;
    if (s !== s) return false; // NaN
    if (s > top) top = s;
    if (s < bottom) bottom = s;
  }
  const range = top - bottom;
  const nb = n * BUCKETS_PER_RESULT;
  if (!(range > 0 && range < Infinity) || nb > 1 << 30) return false;
  // (top - s) * scale is monotonic in s and at most nb - 1 (give or take rounding, which |0 drops)
  const scale = (nb - 1) / range;
  if (hist.length < nb) {
    const size = Math.max(nb, Math.ceil(hist.length * 1.5));
    hist = new Int32Array(size);
    head = new Int32Array(size);
  }
  if (nextInBucket.length < k) nextInBucket = new Int32Array(Math.max(k, 2 * nextInBucket.length));
  hist.fill(0, 0, nb);
  head.fill(-1, 0, nb);
  for (let e = start; e < end; e++) {
    const b = ((top - (scores[e] as number)) * scale) | 0;
    if (!(b >= 0 && b < nb)) return false; // cannot happen (see scale): never a wrong bucket
    hist[b]!++;
  }
  // the comparisons the last loop will make
  let shared = 0;
  for (let i = 0; i < k; i++) {
    const b = ((top - (scores[matched[i] as number] as number)) * scale) | 0;
    shared += (hist[b] as number) - 1;
    nextInBucket[i] = head[b] as number;
    head[b] = i;
  }
  if (shared > MAX_SHARED_PER_RESULT * n) return false;
  // hist[b] becomes the results in buckets above b
  let above = 0;
  for (let b = 0; b < nb; b++) {
    const c = hist[b] as number;
    hist[b] = above;
    above += c;
  }
  for (let i = 0; i < k; i++) {
    const b = ((top - (scores[matched[i] as number] as number)) * scale) | 0;
    rankOf[i] = hist[b] as number;
  }
  // the results sharing a bucket with judged ones, each compared with those
  for (let e = start; e < end; e++) {
    const se = scores[e] as number;
    const b = ((top - se) * scale) | 0;
    for (let i = head[b] as number; i >= 0; i = nextInBucket[i] as number) {
      const m = matched[i] as number;
      if (m === e) continue;
      const sm = scores[m] as number;
      if (se > sm || (se === sm && compareRunDocnos(run, e, m) > 0)) rankOf[i]!++;
    }
  }
  return true;
}
