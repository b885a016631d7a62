import { IntVec } from './int-vec.js';
import { luceneQuantizedLength } from './lucene-norms.js';
import type { TermLookup } from './term-dictionary.js';
import { TopK } from './top-k.js';

/**
 * BM25 over an inverted index held in typed arrays.
 *
 * Layout: terms get dense ids in first-seen order; `offsets[t]..offsets[t+1]` delimits term t's
 * postings in `postDocs` (Int32, ascending doc number) and `postTf` (Uint16, or Uint32 when some
 * term frequency exceeds 65535). Per-document lengths are an Int32Array. Doc numbers are assigned
 * by the caller (the engine numbers records in id order, so "doc number asc" is the id tie-break).
 *
 * Two scoring formulas (`formula`):
 * - `lucene` (Lucene >= 8 BM25Similarity, what Anserini runs):
 *   idf = ln(1 + (N - df + 0.5) / (df + 0.5)); term score = idf * tf / (tf + k1 * (1 - b + b * dl / avgdl)).
 *   Lucene dropped the constant factor (k1 + 1) in version 8; it does not change rankings.
 * - `fts5` (SQLite FTS5 `bm25()`, sign flipped so higher is better):
 *   idf = ln((N - df + 0.5) / (df + 0.5)), replaced by 1e-6 when <= 0;
 *   term score = idf * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * dl / avgdl)), evaluated in the same
 *   operation order as fts5_aux.c so scores are bit-identical in double precision.
 * `lengthNorm: 'lucene'` replaces dl by Lucene's one-byte quantised length (see lucene-norms.ts);
 * avgdl is always the exact mean (Lucene: sumTotalTermFreq / docCount). All arithmetic is float64
 * (Lucene uses float32 in places; scores differ from Lucene's in the 7th significant digit).
 * A query term that occurs k times in the query is scored once with weight k (Anserini's
 * bag-of-words query builds one boosted clause per distinct term).
 *
 * Query evaluation: terms are taken rarest first (df asc, then term), and each document's score is
 * summed in that order in every path, so `search` and `scoreAll` give bit-identical scores.
 * `search` is exact top-k with MaxScore-style pruning: each term stores its largest possible
 * contribution; once the k-th best partial score exceeds what the remaining terms could add to a
 * document not yet seen, the remaining (frequent) terms are only looked up for the surviving
 * candidates by galloping through their postings instead of being scanned.
 */
export interface Bm25Params {
  k1: number;
  b: number;
  formula: 'lucene' | 'fts5';
  lengthNorm: 'exact' | 'lucene';
}

export interface QueryTerm {
  term: string;
  weight: number;
}

export interface ScoredDocs {
  /** touched doc numbers, in first-touch order */
  docs: Int32Array;
  scores: Float64Array;
  /** how many distinct query terms each touched doc contains */
  coverage: Int32Array;
  /** distinct query terms that exist in the vocabulary */
  knownTerms: number;
}

export class Bm25Index {
  readonly params: Bm25Params;
  readonly docCount: number;
  readonly vocab: TermLookup;
  readonly offsets: Int32Array;
  readonly postDocs: Int32Array;
  readonly postTf: Uint16Array | Uint32Array;
  readonly docLen: Int32Array;
  readonly totalTokens: number;
  readonly avgdl: number;
  /** k1 * (1 - b + b * dl / avgdl) per doc, precomputed */
  private readonly norm: Float64Array;
  /** per term: the largest tf-part of its contribution over its postings (upper bound for pruning) */
  private readonly maxImpact: Float64Array;
  private readonly acc: Float64Array;
  private readonly cov: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly touched: Int32Array;
  private epoch = 0;

  private constructor(
    params: Bm25Params,
    vocab: TermLookup,
    offsets: Int32Array,
    postDocs: Int32Array,
    postTf: Uint16Array | Uint32Array,
    docLen: Int32Array,
    totalTokens: number,
  ) {
    this.params = { ...params };
    this.vocab = vocab;
    this.offsets = offsets;
    this.postDocs = postDocs;
    this.postTf = postTf;
    this.docLen = docLen;
    this.docCount = docLen.length;
    this.totalTokens = totalTokens;
    this.avgdl = this.docCount === 0 ? 0 : totalTokens / this.docCount;
    const { k1, b } = params;
    const n = this.docCount;
    this.norm = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      const dl =
        params.lengthNorm === 'lucene' ? luceneQuantizedLength(docLen[d] as number) : (docLen[d] as number);
      this.norm[d] = this.avgdl === 0 ? k1 * (1 - b) : k1 * (1 - b + (b * dl) / this.avgdl);
    }
    const v = offsets.length - 1;
    this.maxImpact = new Float64Array(v);
    for (let t = 0; t < v; t++) {
      let max = 0;
      for (let p = offsets[t] as number, e = offsets[t + 1] as number; p < e; p++) {
        const x = this.impact(postTf[p] as number, this.norm[postDocs[p] as number] as number);
        if (x > max) max = x;
      }
      this.maxImpact[t] = max;
    }
    this.acc = new Float64Array(n);
    this.cov = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.touched = new Int32Array(n);
  }

  /** the tf-dependent factor of a term's contribution; the contribution is (weight * idf) * impact */
  private impact(tf: number, norm: number): number {
    return (tf * this.c1) / (tf + norm);
  }

  /**
   * Build from `docCount` documents. `fill(doc, out)` appends the doc's term ids (dense ids of
   * `vocab`, which it may extend) and is called once per doc in doc-number order, so the caller never
   * holds every document's terms at once.
   */
  static build(
    docCount: number,
    fill: (doc: number, out: IntVec) => void,
    vocab: TermLookup,
    params: Bm25Params,
  ): Bm25Index {
    let df = new Int32Array(4096);
    // (term, tf) pairs in doc order; grown ahead of each doc so the hot loops write without checks
    let pt = new Int32Array(Math.max(1024, docCount * 128));
    let pf = new Int32Array(pt.length);
    let np = 0;
    const docStart = new Int32Array(docCount + 1);
    const docLen = new Int32Array(docCount);
    let scratch = new Int32Array(4096);
    let maxTf = 0;
    let totalTokens = 0;
    const ids = new IntVec(512);
    for (let d = 0; d < docCount; d++) {
      ids.length = 0;
      fill(d, ids);
      const size = vocab.size;
      if (size > scratch.length) {
        let cap = scratch.length;
        while (cap < size) cap *= 2;
        const s2 = new Int32Array(cap);
        s2.set(scratch);
        scratch = s2;
        const d2 = new Int32Array(cap);
        d2.set(df);
        df = d2;
      }
      const n = ids.length;
      if (np + n > pt.length) {
        const cap = Math.max(pt.length * 2, np + n);
        const t2 = new Int32Array(cap);
        t2.set(pt.subarray(0, np));
        pt = t2;
        const f2 = new Int32Array(cap);
        f2.set(pf.subarray(0, np));
        pf = f2;
      }
      const data = ids.data;
      const first = np;
      for (let i = 0; i < n; i++) {
        const t = data[i] as number;
        const c = scratch[t] as number;
        if (c === 0) pt[np++] = t;
        scratch[t] = c + 1;
      }
      docStart[d] = first;
      for (let p = first; p < np; p++) {
        const t = pt[p] as number;
        const tf = scratch[t] as number;
        scratch[t] = 0;
        pf[p] = tf;
        df[t] = (df[t] as number) + 1;
        if (tf > maxTf) maxTf = tf;
      }
      docLen[d] = n;
      totalTokens += n;
    }
    docStart[docCount] = np;
    const v = vocab.size;
    const offsets = new Int32Array(v + 1);
    for (let t = 0; t < v; t++) offsets[t + 1] = (offsets[t] as number) + (df[t] as number);
    const cursor = offsets.slice(0, v);
    const postDocs = new Int32Array(np);
    const postTf = maxTf > 0xffff ? new Uint32Array(np) : new Uint16Array(np);
    for (let d = 0; d < docCount; d++) {
      for (let p = docStart[d] as number, e = docStart[d + 1] as number; p < e; p++) {
        const t = pt[p] as number;
        const at = cursor[t] as number;
        cursor[t] = at + 1;
        postDocs[at] = d;
        postTf[at] = pf[p] as number;
      }
    }
    return new Bm25Index(params, vocab, offsets, postDocs, postTf, docLen, totalTokens);
  }

  /** Build from plain token arrays (tests, tools): every distinct token is a term. */
  static fromTokens(docs: readonly (readonly string[])[], params: Bm25Params): Bm25Index {
    const vocab = new Map<string, number>();
    return Bm25Index.build(
      docs.length,
      (d, out) => {
        for (const tok of docs[d] as readonly string[]) {
          let t = vocab.get(tok);
          if (t === undefined) {
            t = vocab.size;
            vocab.set(tok, t);
          }
          out.push(t);
        }
      },
      vocab,
      params,
    );
  }

  df(term: string): number {
    const t = this.vocab.get(term);
    return t === undefined ? 0 : (this.offsets[t + 1] as number) - (this.offsets[t] as number);
  }

  idf(df: number): number {
    const n = this.docCount;
    if (this.params.formula === 'lucene') return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const idf = Math.log((n - df + 0.5) / (df + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  }

  /** Bytes held by the index arrays (postings, offsets, lengths, norms, bounds, query scratch). */
  arrayBytes(): number {
    return (
      this.offsets.byteLength +
      this.postDocs.byteLength +
      this.postTf.byteLength +
      this.docLen.byteLength +
      this.norm.byteLength +
      this.maxImpact.byteLength +
      this.acc.byteLength +
      this.cov.byteLength +
      this.stamp.byteLength +
      this.touched.byteLength
    );
  }

  /** Query terms present in the index, with their weight * idf, in evaluation order (df asc, term asc). */
  private resolve(
    query: readonly QueryTerm[],
  ): { t: number; term: string; w: number; df: number; ub: number }[] {
    const out: { t: number; term: string; w: number; df: number; ub: number }[] = [];
    for (const q of query) {
      const t = this.vocab.get(q.term);
      if (t === undefined || !(q.weight > 0)) continue;
      const df = (this.offsets[t + 1] as number) - (this.offsets[t] as number);
      const w = q.weight * this.idf(df);
      out.push({ t, term: q.term, w, df, ub: w * (this.maxImpact[t] as number) });
    }
    return out.sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  }

  private nextEpoch(): number {
    this.epoch = (this.epoch + 1) >>> 0;
    if (this.epoch === 0) {
      this.stamp.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /** the numerator constant of the tf part: (k1 + 1) for fts5, 1 for lucene (tf * 1.0 is exact) */
  private get c1(): number {
    return this.params.formula === 'fts5' ? this.params.k1 + 1.0 : 1.0;
  }

  /** Add one term's contributions for every posting (OR mode); returns the new touched count. */
  private scanTerm(t: number, w: number, epoch: number, nTouched: number): number {
    const { acc, cov, stamp, touched, norm, postDocs, postTf } = this;
    const c1 = this.c1;
    const start = this.offsets[t] as number;
    const end = this.offsets[t + 1] as number;
    if (nTouched === 0) {
      // first term: every posting is a new document (no stamp test needed)
      for (let p = start; p < end; p++) {
        const d = postDocs[p] as number;
        const tf = postTf[p] as number;
        acc[d] = w * ((tf * c1) / (tf + (norm[d] as number)));
        cov[d] = 1;
        stamp[d] = epoch;
        touched[nTouched++] = d;
      }
      return nTouched;
    }
    for (let p = start; p < end; p++) {
      const d = postDocs[p] as number;
      const tf = postTf[p] as number;
      const s = w * ((tf * c1) / (tf + (norm[d] as number)));
      if (stamp[d] !== epoch) {
        stamp[d] = epoch;
        acc[d] = s;
        cov[d] = 1;
        touched[nTouched++] = d;
      } else {
        acc[d] = (acc[d] as number) + s;
        cov[d] = (cov[d] as number) + 1;
      }
    }
    return nTouched;
  }

  /** Score every document containing at least one query term. */
  scoreAll(query: readonly QueryTerm[]): ScoredDocs {
    const terms = this.resolve(query);
    const epoch = this.nextEpoch();
    let n = 0;
    for (const q of terms) n = this.scanTerm(q.t, q.w, epoch, n);
    const docs = this.touched.slice(0, n);
    const scores = new Float64Array(n);
    const coverage = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const d = docs[i] as number;
      scores[i] = this.acc[d] as number;
      coverage[i] = this.cov[d] as number;
    }
    return { docs, scores, coverage, knownTerms: terms.length };
  }

  /** fill `heap` (reset to k) with the best of the given docs by their accumulated score */
  private collect(heap: TopK, docs: Int32Array, n: number, k: number): TopK {
    heap.reset(k);
    const acc = this.acc;
    let thr = -Infinity;
    for (let i = 0; i < n; i++) {
      const d = docs[i] as number;
      const s = acc[d] as number;
      if (s >= thr) {
        heap.offer(d, s);
        if (heap.count === k) thr = heap.threshold;
      }
    }
    return heap;
  }

  private readonly heap = new TopK(16);

  /** Exact top-k: score desc, doc number asc. */
  search(query: readonly QueryTerm[], k: number): { doc: number; score: number }[] {
    if (k <= 0) return [];
    const terms = this.resolve(query);
    const m = terms.length;
    // restUb[i]: bound on what terms i..m-1 can add, summed in evaluation order, inflated for rounding
    const restUb = new Float64Array(m + 1);
    for (let i = m - 1; i >= 0; i--) restUb[i] = (restUb[i + 1] as number) + (terms[i] as { ub: number }).ub;
    for (let i = 0; i <= m; i++) restUb[i] = (restUb[i] as number) * (1 + 1e-9);
    const epoch = this.nextEpoch();
    const heap = this.heap;
    let n = 0;
    let i = 0;
    let theta = -Infinity;
    for (; i < m; i++) {
      // the k-th best partial score can never exceed the bound of the terms seen so far, so only
      // compute it when that bound says pruning is possible
      if (i > 0 && n >= k && (restUb[0] as number) - (restUb[i] as number) > (restUb[i] as number)) {
        theta = this.collect(heap, this.touched, n, k).threshold;
        if ((restUb[i] as number) < theta) break;
      }
      const q = terms[i] as { t: number; w: number };
      n = this.scanTerm(q.t, q.w, epoch, n);
    }
    let cands: Int32Array;
    let nc: number;
    if (i < m) {
      // pruning: only documents already seen can still reach the top k
      let c = new Int32Array(n);
      nc = 0;
      const rest = restUb[i] as number;
      for (let j = 0; j < n; j++) {
        const d = this.touched[j] as number;
        if ((this.acc[d] as number) + rest >= theta) c[nc++] = d;
      }
      c = c.subarray(0, nc).sort();
      for (; i < m; i++) {
        const q = terms[i] as { t: number; w: number };
        this.addToCandidates(q.t, q.w, c, nc);
      }
      cands = c;
    } else {
      cands = this.touched;
      nc = n;
    }
    return this.collect(heap, cands, nc, k).drain();
  }

  /** Add term t's contribution to each candidate (ascending doc numbers) that contains it, galloping through the postings. */
  private addToCandidates(t: number, w: number, cands: Int32Array, nc: number): void {
    const { acc, cov, norm, postDocs, postTf } = this;
    const c1 = this.c1;
    let p = this.offsets[t] as number;
    const end = this.offsets[t + 1] as number;
    for (let j = 0; j < nc && p < end; j++) {
      const d = cands[j] as number;
      if ((postDocs[p] as number) < d) {
        // gallop: find the first posting >= d
        let base = p;
        let step = 1;
        while (base + step < end && (postDocs[base + step] as number) < d) {
          base += step;
          step <<= 1;
        }
        let lo = base + 1;
        let hi = Math.min(base + step, end);
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((postDocs[mid] as number) < d) lo = mid + 1;
          else hi = mid;
        }
        p = lo;
        if (p >= end) break;
      }
      if (postDocs[p] === d) {
        const tf = postTf[p] as number;
        acc[d] = (acc[d] as number) + w * ((tf * c1) / (tf + (norm[d] as number)));
        cov[d] = (cov[d] as number) + 1;
        p++;
      }
    }
  }
}

/** Distinct terms with their query frequency as weight, in first-occurrence order. */
export function bagOfWords(terms: readonly string[]): QueryTerm[] {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()].map(([term, weight]) => ({ term, weight }));
}
