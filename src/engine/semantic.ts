import type { CorpusRecord, RetrievalConfig } from '../documents/index.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import { sha256 } from '../core/hash.js';
import { SEMANTIC_DEFAULTS } from '../core/defaults.js';
import { bagOfWords } from './bm25-index.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import { indexText } from './indexed-corpus.js';
import { VectorIndex, type VectorHit } from './vector-index.js';
import type {
  Embedder,
  ErrorEnvelope,
  RetrievalResultV1,
  SelectCandidate,
  SelectFallbackStep,
  SelectRequest,
  SelectResult,
} from './types.js';

/**
 * Semantic selection v1 (seed 001) and the retrieval-result-v1 view (seed 003).
 *
 * Vectors: a record's `embedding` is used as given; records without one are embedded with the
 * engine's embedder (title + text). The record matrix is built lazily on the first semantic call
 * (lexical-only users never pay for it) and kept. Every vector must have config.embedding.dimensions
 * entries, else the error envelope `embedding_dimension_mismatch` is returned.
 * Scores are cosine similarities in [-1, 1] (a zero vector scores 0). Top-K: K = clamp(k, 10, 15),
 * ties by id asc.
 * Method (config.semantic.method, default 'hybrid_rrf'):
 * - 'cosine': candidates and gates use the cosine; gates confidence_min / ambiguity_margin.
 * - 'hybrid_rrf' (memory-cli's `--mode hybrid`): two rankings, BM25 (the engine's lexical index) and
 *   the cosine, each cut to its first rrf_depth records (a record with BM25 0 or cosine <= 0 is in
 *   neither list: it carries no signal); fused(d) = sum over the lists of 1 / (rrf_k + rank). Order:
 *   fused desc, cosine desc, BM25 desc, id asc. A candidate's score is fused / (2 / (rrf_k + 1)), the
 *   normalised fused score in [0, 1]: 1 when both rankings put it first, <= 0.5 when only one has it.
 *   Gates on that score: top1 >= hybrid_confidence_min and top1 - top2 >= hybrid_margin_min. Unlike
 *   memory-cli (which always takes the fused top-1 unless no signal at all), a failed gate goes down
 *   the seed's fallback chain, as the seed requires.
 * Gates: confidence (top1 >= confidence_min) and ambiguity (top1 - top2 >= ambiguity_margin; passes
 * with a single candidate). If either fails and fallback is enabled:
 * 1. exact key: records whose `key` equals the request's `exact_key`; else records whose key appears in
 *    the query text as a whole word (case-sensitive, bounded by non-letter/digit characters; the
 *    longest mentioned key wins). Among several records: path_priority desc, source_path asc, id asc.
 * 2. path priority: records whose source_path shares at least one analysed token with the query
 *    (path split on / \ . - _ before analysis); highest path_priority (missing = 0) wins, then more
 *    shared tokens, source_path asc, id asc.
 * 3. no_match: selected_id and source_path null, confidence 0, reason stated.
 * Records withheld by the sensitive-tag policy (indexed-corpus.ts) are never candidates or selections.
 */
export const K_MIN = 10;
export const K_MAX = 15;

export function clampK(k: number | undefined, fallback: number): number {
  const v = typeof k === 'number' && Number.isFinite(k) ? Math.floor(k) : fallback;
  return Math.min(K_MAX, Math.max(K_MIN, v));
}

function envelope(code: string, message: string, action: string): ErrorEnvelope {
  return { error: { code, message, action } };
}

/** A request's query vector and its norm, and its cosine ranking when a batch computed it already. */
interface QueryVector {
  q: Float32Array;
  qNorm: number;
  /** the vector ranking the method needs (rankingFor), from selectMany's batched pass */
  ranked?: VectorHit[];
}

export class SemanticIndex {
  private readonly ic: IndexedCorpus;
  private readonly config: RetrievalConfig;
  private readonly embedder: Embedder;
  private matrix: VectorIndex | ErrorEnvelope | null = null;
  private keys: string[] | null = null;
  private pathTerms: Set<string>[] | null = null;

  constructor(ic: IndexedCorpus, config: RetrievalConfig, embedder: Embedder) {
    this.ic = ic;
    this.config = config;
    this.embedder = embedder;
  }

  private getMatrix(): VectorIndex | ErrorEnvelope {
    if (this.matrix) return this.matrix;
    const dims = this.config.embedding.dimensions;
    const recs = this.ic.records;
    const needsEmbedder = recs.some((r) => r.embedding === undefined);
    if (needsEmbedder && this.config.embedder?.type === 'http') {
      const r = recs.find((x) => x.embedding === undefined) as CorpusRecord;
      return (this.matrix = envelope(
        'embedding_not_pinned',
        `config.embedder is an HTTP server (${this.config.embedder.model}), and corpus record "${r.id}" has no pinned embedding`,
        'run `rgate freeze <set>`: it fetches and pins every vector; runs never call the server',
      ));
    }
    if (needsEmbedder && this.embedder.dimensions !== dims) {
      return (this.matrix = envelope(
        'embedding_dimension_mismatch',
        `embedder ${this.embedder.id} produces ${this.embedder.dimensions} dimensions, config.embedding.dimensions is ${dims}`,
        'use an embedder with the configured dimensions or change config.embedding.dimensions',
      ));
    }
    const index = new VectorIndex(recs.length, dims);
    for (let d = 0; d < recs.length; d++) {
      const r = recs[d] as CorpusRecord;
      let v: ArrayLike<number>;
      if (r.embedding !== undefined) {
        if (r.embedding.length !== dims) {
          return (this.matrix = envelope(
            'embedding_dimension_mismatch',
            `corpus record "${r.id}" has a ${r.embedding.length}-dimension embedding, expected ${dims}`,
            're-embed the corpus with the configured model or change config.embedding.dimensions',
          ));
        }
        v = r.embedding;
      } else {
        v = this.embedder.embedFields
          ? this.embedder.embedFields(r.title ? { title: r.title, text: r.text } : { text: r.text })
          : this.embedder.embed(indexText(r));
      }
      index.setRow(d, v);
    }
    return (this.matrix = index);
  }

  private queryVector(req: SelectRequest, dims: number): Float32Array | ErrorEnvelope {
    if (req.query_embedding !== undefined) {
      if (req.query_embedding.length !== dims) {
        return envelope(
          'embedding_dimension_mismatch',
          `query embedding has ${req.query_embedding.length} dimensions, expected ${dims}`,
          'embed the query with the same model as the corpus',
        );
      }
      return Float32Array.from(req.query_embedding);
    }
    if (this.config.embedder?.type === 'http')
      return envelope(
        'embedding_not_pinned',
        `config.embedder is an HTTP server (${this.config.embedder.model}); this query has no pinned embedding`,
        'only queries of the frozen query set carry vectors; run `rgate freeze <set>` after adding queries',
      );
    if (this.embedder.dimensions !== dims) {
      return envelope(
        'embedding_dimension_mismatch',
        `embedder ${this.embedder.id} produces ${this.embedder.dimensions} dimensions, expected ${dims}`,
        'use an embedder with the configured dimensions',
      );
    }
    return this.embedder.embed(req.query ?? '');
  }

  /** The corpus matrix and the request's vector with its norm (what both rankings start from). */
  private matrixAndQuery(
    req: SelectRequest,
    pre?: QueryVector,
  ): ({ m: VectorIndex } & QueryVector) | ErrorEnvelope {
    const m = this.getMatrix();
    if ('error' in m) return m;
    if (pre) return { m, ...pre };
    const q = this.queryVector(req, m.dims);
    if ('error' in q) return q;
    return { m, q, qNorm: VectorIndex.norm(q) };
  }

  /**
   * The vector ranking a method starts from: cosine top-k of the records semantic selection may
   * return; for hybrid_rrf top rrf_depth, records with cosine <= 0 left out (no signal).
   */
  private rankingFor(method: 'cosine' | 'hybrid_rrf', k: number): { k: number; positiveOnly: boolean } {
    return method === 'hybrid_rrf'
      ? { k: SEMANTIC_DEFAULTS.rrf_depth, positiveOnly: true }
      : { k, positiveOnly: false };
  }

  /** Cosine top-K (K already clamped); also returns the query vector for later lookups. */
  topK(
    req: SelectRequest,
    k: number,
    pre?: QueryVector,
  ): { hits: VectorHit[]; m: VectorIndex; q: Float32Array; qNorm: number } | ErrorEnvelope {
    const v = this.matrixAndQuery(req, pre);
    if ('error' in v) return v;
    const { m, q, qNorm } = v;
    // a batch ranked to the largest k of its requests: the first k of those are this request's top-k
    const hits = v.ranked ? v.ranked.slice(0, k) : m.topK(q, k, { exclude: this.ic.withheld });
    return { hits, m, q, qNorm };
  }

  /** The method's settings, the config's value else the engine default (src/core/defaults.ts). */
  settings(): {
    method: 'cosine' | 'hybrid_rrf';
    rrf_k: number;
    confidence_min: number;
    ambiguity_margin: number;
  } {
    const s = this.config.semantic;
    const method = s.method ?? SEMANTIC_DEFAULTS.method;
    return method === 'cosine'
      ? {
          method,
          rrf_k: s.rrf_k ?? SEMANTIC_DEFAULTS.rrf_k,
          confidence_min: s.confidence_min,
          ambiguity_margin: s.ambiguity_margin,
        }
      : {
          method,
          rrf_k: s.rrf_k ?? SEMANTIC_DEFAULTS.rrf_k,
          confidence_min: s.hybrid_confidence_min ?? SEMANTIC_DEFAULTS.hybrid_confidence_min,
          ambiguity_margin: s.hybrid_margin_min ?? SEMANTIC_DEFAULTS.hybrid_margin_min,
        };
  }

  /**
   * Hybrid ranking: RRF over BM25 and cosine (see the header). Returns the top-k by fused score with
   * the normalised fused score, and a lookup of any record's normalised fused score.
   */
  hybridTopK(
    req: SelectRequest,
    k: number,
    rrfK: number,
    pre?: QueryVector,
  ): { hits: VectorHit[]; scoreOf: (doc: number) => number } | ErrorEnvelope {
    const v = this.matrixAndQuery(req, pre);
    if ('error' in v) return v;
    const { m, q, qNorm } = v;
    const depth = SEMANTIC_DEFAULTS.rrf_depth;
    const withheld = this.ic.withheld;
    const n = this.ic.records.length;
    const vector = v.ranked ?? m.topK(q, depth, { exclude: withheld, positiveOnly: true });
    let held = 0;
    for (let d = 0; d < n; d++) held += withheld[d] as number;
    const terms = bagOfWords(this.ic.analyzer.analyze(req.query ?? ''));
    const bm = new Float64Array(n);
    const lexical = this.ic.index
      .search(terms, depth + held)
      .filter((h) => withheld[h.doc] === 0 && h.score > 0)
      .slice(0, depth);
    const fused = new Map<number, number>();
    lexical.forEach((h, i) => {
      bm[h.doc] = h.score;
      fused.set(h.doc, (fused.get(h.doc) ?? 0) + 1 / (rrfK + i + 1));
    });
    vector.forEach((h, i) => fused.set(h.doc, (fused.get(h.doc) ?? 0) + 1 / (rrfK + i + 1)));
    // the cosine tie-break, for the fused records only (a BM25-only one is scored here, exactly)
    const cos = new Map<number, number>(vector.map((h) => [h.doc, h.score]));
    for (const doc of fused.keys()) if (!cos.has(doc)) cos.set(doc, m.cosine(q, qNorm, doc));
    const best = 2 / (rrfK + 1);
    const hits = [...fused.entries()]
      .map(([doc, f]) => ({ doc, score: f / best }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          (cos.get(b.doc) as number) - (cos.get(a.doc) as number) ||
          (bm[b.doc] as number) - (bm[a.doc] as number) ||
          a.doc - b.doc,
      )
      .slice(0, k);
    return { hits, scoreOf: (doc) => (fused.get(doc) ?? 0) / best };
  }

  /**
   * select() of each request, the same answers; the cosine rankings of all of them are computed in
   * one batched pass over the records (VectorIndex.topKMany) instead of one pass per request.
   */
  selectMany(reqs: readonly SelectRequest[]): (SelectResult | ErrorEnvelope)[] {
    const m = this.getMatrix();
    if ('error' in m) return reqs.map(() => m);
    const { method } = this.settings();
    const vectors = reqs.map((r) => this.queryVector(r, m.dims));
    const ok: number[] = [];
    vectors.forEach((v, i) => {
      if (!('error' in v)) ok.push(i);
    });
    const rank = this.rankingFor(
      method,
      reqs.reduce((k, r) => Math.max(k, clampK(r.k, this.config.k)), K_MIN),
    );
    const ranked = m.topKMany(
      ok.map((i) => vectors[i] as Float32Array),
      rank.k,
      { exclude: this.ic.withheld, positiveOnly: rank.positiveOnly },
    );
    const pre = new Map<number, QueryVector>();
    ok.forEach((i, j) => {
      const q = vectors[i] as Float32Array;
      pre.set(i, { q, qNorm: VectorIndex.norm(q), ranked: ranked[j] as VectorHit[] });
    });
    return reqs.map((r, i) => {
      const v = vectors[i] as Float32Array | ErrorEnvelope;
      return 'error' in v ? v : this.select(r, pre.get(i));
    });
  }

  select(req: SelectRequest, pre?: QueryVector): SelectResult | ErrorEnvelope {
    const k = clampK(req.k, this.config.k);
    const { method, rrf_k, confidence_min, ambiguity_margin } = this.settings();
    let top: { hits: VectorHit[]; scoreOf: (doc: number) => number };
    if (method === 'hybrid_rrf') {
      const h = this.hybridTopK(req, k, rrf_k, pre);
      if ('error' in h) return h;
      top = h;
    } else {
      const c = this.topK(req, k, pre);
      if ('error' in c) return c;
      top = { hits: c.hits, scoreOf: (doc) => c.m.cosine(c.q, c.qNorm, doc) };
    }
    const recs = this.ic.records;
    const candidates: SelectCandidate[] = top.hits.map((h, i) => ({
      id: (recs[h.doc] as CorpusRecord).id,
      source_path: (recs[h.doc] as CorpusRecord).source_path,
      score: h.score,
      rank: i + 1,
    }));
    const top1 = top.hits[0]?.score ?? null;
    const top2 = top.hits[1]?.score ?? null;
    const confidencePassed = top1 !== null && top1 >= confidence_min;
    const ambiguityPassed = top1 !== null && (top2 === null || top1 - top2 >= ambiguity_margin);
    const trace: SelectFallbackStep[] = [];
    const base = {
      contract: 'memory-cli-v1' as const,
      candidates,
      gates: {
        confidence_min,
        ambiguity_margin,
        top1,
        top2,
        confidence_passed: confidencePassed,
        ambiguity_passed: ambiguityPassed,
        method,
        ...(method === 'hybrid_rrf' ? { rrf_k } : {}),
      },
      embedder: this.embedderLabel(),
      k,
    };
    const pick = (
      doc: number,
      mode: SelectResult['selection_mode'],
      reason: string,
      detail: string,
      stage: SelectResult['fallback']['stage'],
    ): SelectResult => {
      const r = recs[doc] as CorpusRecord;
      return {
        ...base,
        selection_mode: mode,
        selected_id: r.id,
        source_path: r.source_path,
        confidence: top.scoreOf(doc),
        reason,
        reason_detail: detail,
        fallback: { triggered: stage !== null, stage, trace },
      };
    };

    if (confidencePassed && ambiguityPassed) {
      trace.push({
        stage: 'semantic',
        outcome: 'selected',
        detail: `${method} top1 ${top1} passed both gates`,
      });
      return pick(
        top.hits[0]!.doc,
        'semantic',
        'semantic_gates_passed',
        method === 'hybrid_rrf'
          ? `top-1 passed the confidence and ambiguity gates on the normalised RRF score of BM25 and cosine (rrf_k ${rrf_k})`
          : 'top-1 passed the confidence and ambiguity gates on the cosine',
        null,
      );
    }
    const why =
      top1 === null
        ? 'no candidate (empty corpus)'
        : [
            confidencePassed ? null : `confidence ${top1} < confidence_min ${confidence_min}`,
            ambiguityPassed ? null : `margin ${top1 - (top2 ?? 0)} < ambiguity_margin ${ambiguity_margin}`,
          ]
            .filter((s) => s !== null)
            .join('; ');
    trace.push({ stage: 'semantic', outcome: 'gate_failed', detail: why });

    const noMatch = (reason: string, detail: string): SelectResult => ({
      ...base,
      selection_mode: 'no_match',
      selected_id: null,
      source_path: null,
      confidence: 0,
      reason,
      reason_detail: detail,
      fallback: { triggered: true, stage: 'no_match', trace },
    });

    if (!this.config.fallback.enabled) {
      trace.push({ stage: 'exact_key', outcome: 'skipped_disabled', detail: 'fallback disabled' });
      trace.push({ stage: 'path_priority', outcome: 'skipped_disabled', detail: 'fallback disabled' });
      return noMatch('no_match_fallback_disabled', `semantic gates failed (${why}) and fallback is disabled`);
    }

    const exact = this.exactKey(req);
    if (exact) {
      trace.push({ stage: 'exact_key', outcome: 'selected', detail: exact.detail });
      return pick(
        exact.doc,
        'fallback_exact_key',
        exact.reason,
        `semantic gates failed (${why}); ${exact.detail}`,
        'exact_key',
      );
    }
    trace.push({
      stage: 'exact_key',
      outcome: 'no_candidate',
      detail: req.exact_key
        ? `no record has key "${req.exact_key}" and no key is mentioned in the query`
        : 'no record key is mentioned in the query',
    });

    const path = this.pathPriority(req.query ?? '');
    if (path) {
      trace.push({ stage: 'path_priority', outcome: 'selected', detail: path.detail });
      return pick(
        path.doc,
        'fallback_path_priority',
        'fallback_path_priority',
        `semantic gates failed (${why}); ${path.detail}`,
        'path_priority',
      );
    }
    trace.push({
      stage: 'path_priority',
      outcome: 'no_candidate',
      detail: 'no source_path shares a token with the query',
    });
    return noMatch(
      'no_match_no_fallback_candidate',
      `semantic gates failed (${why}); no exact key matched; no source_path shares a token with the query`,
    );
  }

  private label: string | null = null;

  /** Constant for the index's life; computed once (it scans every record, and ran on every request). */
  private embedderLabel(): string {
    this.label ??= this.computeEmbedderLabel();
    return this.label;
  }

  private computeEmbedderLabel(): string {
    const e = this.config.embedder;
    if (e?.type === 'http') return `snapshot-vectors:${e.api}:${e.model}`;
    const given = this.ic.records.some((r) => r.embedding !== undefined);
    return given ? `snapshot-vectors+${this.embedder.id}` : this.embedder.id;
  }

  private bestByPriority(docs: number[]): number {
    const recs = this.ic.records;
    return docs.slice().sort((a, b) => {
      const ra = recs[a] as CorpusRecord;
      const rb = recs[b] as CorpusRecord;
      return (
        (rb.path_priority ?? 0) - (ra.path_priority ?? 0) ||
        compareCodeUnits(ra.source_path, rb.source_path) ||
        compareCodeUnits(ra.id, rb.id)
      );
    })[0] as number;
  }

  private exactKey(req: SelectRequest): { doc: number; reason: string; detail: string } | null {
    const recs = this.ic.records;
    if (req.exact_key) {
      const docs: number[] = [];
      for (let d = 0; d < recs.length; d++)
        if ((recs[d] as CorpusRecord).key === req.exact_key && this.ic.withheld[d] === 0) docs.push(d);
      if (docs.length > 0) {
        return {
          doc: this.bestByPriority(docs),
          reason: 'fallback_exact_key_request',
          detail: `record key equals exact_key "${req.exact_key}"`,
        };
      }
    }
    if (this.keys === null) {
      const set = new Set<string>();
      recs.forEach((r, d) => {
        if (r.key && this.ic.withheld[d] === 0) set.add(r.key);
      });
      // longest first, then code-unit order: the first mentioned key in this order wins
      this.keys = [...set].sort((a, b) => b.length - a.length || compareCodeUnits(a, b));
    }
    const text = req.query ?? '';
    for (const key of this.keys) {
      if (mentions(text, key)) {
        const docs: number[] = [];
        for (let d = 0; d < recs.length; d++)
          if ((recs[d] as CorpusRecord).key === key && this.ic.withheld[d] === 0) docs.push(d);
        return {
          doc: this.bestByPriority(docs),
          reason: 'fallback_exact_key_mentioned',
          detail: `query mentions record key "${key}"`,
        };
      }
    }
    return null;
  }

  private pathPriority(query: string): { doc: number; detail: string } | null {
    const recs = this.ic.records;
    const an = this.ic.analyzer;
    if (this.pathTerms === null)
      this.pathTerms = recs.map((r) => new Set(an.analyze(splitPath(r.source_path))));
    const q = new Set(an.analyze(splitPath(query)));
    if (q.size === 0) return null;
    let best = -1;
    let bestShared = 0;
    for (let d = 0; d < recs.length; d++) {
      if (this.ic.withheld[d] === 1) continue;
      let shared = 0;
      for (const t of this.pathTerms[d] as Set<string>) if (q.has(t)) shared++;
      if (shared === 0) continue;
      if (best < 0) {
        best = d;
        bestShared = shared;
        continue;
      }
      const a = recs[d] as CorpusRecord;
      const b = recs[best] as CorpusRecord;
      const c =
        (a.path_priority ?? 0) - (b.path_priority ?? 0) ||
        shared - bestShared ||
        -compareCodeUnits(a.source_path, b.source_path) ||
        -compareCodeUnits(a.id, b.id);
      if (c > 0) {
        best = d;
        bestShared = shared;
      }
    }
    if (best < 0) return null;
    const r = recs[best] as CorpusRecord;
    return {
      doc: best,
      detail: `source_path "${r.source_path}" shares ${bestShared} token(s) with the query; path_priority ${r.path_priority ?? 0}`,
    };
  }

  retrievalResult(req: SelectRequest): RetrievalResultV1 | ErrorEnvelope {
    const dims = this.config.embedding.dimensions;
    if (dims !== 768) {
      return envelope(
        'embedding_dimension_mismatch',
        `retrieval-result-v1 requires 768-dimension embeddings, config.embedding.dimensions is ${dims}`,
        'set config.embedding.dimensions to 768',
      );
    }
    const k = clampK(req.k, this.config.k);
    const top = this.topK(req, k);
    if ('error' in top) return top;
    const recs = this.ic.records;
    return {
      schema_version: '1.0.0',
      query_embedding_dimensions: dims,
      k_requested: k,
      k_returned: top.hits.length,
      query_hash: sha256(req.query ?? ''),
      score_semantics: 'cosine_similarity',
      results: top.hits.map((h, i) => {
        const r = recs[h.doc] as CorpusRecord;
        return {
          chunk_id: r.id,
          document_id: r.parent_id ?? r.source_path,
          text_content: r.text,
          page: null,
          section: r.title ?? null,
          coordinates: null,
          rank: i + 1,
          score: h.score,
        };
      }),
    };
  }
}

/** Paths are tokenised on separators too, so `docs/gate-c/closeout.md` yields docs, gate, c, closeout, md. */
function splitPath(s: string): string {
  return s.replace(/[/\\._-]+/g, ' ');
}

const WORDCH = /[\p{L}\p{N}]/u;

/** Does `text` contain `key` as a whole word (not inside a longer run of letters/digits)? */
export function mentions(text: string, key: string): boolean {
  if (key === '') return false;
  let from = 0;
  for (;;) {
    const at = text.indexOf(key, from);
    if (at < 0) return false;
    const before = at > 0 ? text[at - 1] : '';
    const after = text[at + key.length] ?? '';
    const edgeStart = WORDCH.test(key[0] as string);
    const edgeEnd = WORDCH.test(key[key.length - 1] as string);
    if ((!edgeStart || !before || !WORDCH.test(before)) && (!edgeEnd || !after || !WORDCH.test(after)))
      return true;
    from = at + 1;
  }
}
