import type { CorpusRecord, RetrievalConfig } from '../documents/index.js';
import { SEMANTIC_DEFAULTS } from '../core/defaults.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import { retrievalResult } from './retrieval-result.js';
import { FallbackPicks } from './semantic-fallback.js';
import { hybridTopK } from './semantic-hybrid.js';
import { SemanticVectors } from './semantic-vectors.js';
import type { VectorHit } from './vector-index.js';
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
 * Semantic selection v1 (seed 001): a ranking, two gates and a deterministic fallback chain. The
 * vectors (the corpus matrix, query vectors, the embedder label) are semantic-vectors.ts's; the
 * hybrid ranking semantic-hybrid.ts's; the fallback picks semantic-fallback.ts's; the
 * retrieval-result-v1 view (seed 003) retrieval-result.ts's.
 *
 * Scores are cosine similarities in [-1, 1] (a zero vector scores 0). Top-K: K = clamp(k, 10, 15),
 * ties by id asc.
 * Method (config.semantic.method, default 'hybrid_rrf'):
 * - 'cosine': candidates and gates use the cosine; gates confidence_min / ambiguity_margin.
 * - 'hybrid_rrf': RRF of the BM25 and cosine rankings (semantic-hybrid.ts); a candidate's score is
 *   the normalised fused score in [0, 1]. Gates on that score: top1 >= hybrid_confidence_min and
 *   top1 - top2 >= hybrid_margin_min. Unlike memory-cli (which always takes the fused top-1 unless
 *   no signal at all), a failed gate goes down the seed's fallback chain, as the seed requires.
 * Gates: confidence (top1 >= confidence_min) and ambiguity (top1 - top2 >= ambiguity_margin; passes
 * with a single candidate). If either fails and fallback is enabled: 1. exact key, 2. path priority
 * (semantic-fallback.ts), 3. no_match: selected_id and source_path null, confidence 0, reason stated.
 * Records withheld by the sensitive-tag policy (indexed-corpus.ts) are never candidates or selections.
 */
/**
 * The config keys select reads (see engine-reads.ts): every method's, then each method's own gates
 * (settings() below). `instead` pairs a gate with the other method's gate of the same job, so a
 * setting of the method not in use can name the one that would have been read.
 */
export const SEMANTIC_READS = {
  all: ['k', 'fallback.enabled', 'analyzer', 'sensitive_tags', 'embedding', 'embedder', 'semantic.method'],
  cosine: ['semantic.confidence_min', 'semantic.ambiguity_margin'],
  // the fused ranking's lexical half is the BM25 index's
  hybrid_rrf: ['semantic.rrf_k', 'semantic.hybrid_confidence_min', 'semantic.hybrid_margin_min', 'bm25'],
  instead: {
    'semantic.confidence_min': 'semantic.hybrid_confidence_min',
    'semantic.ambiguity_margin': 'semantic.hybrid_margin_min',
    'semantic.hybrid_confidence_min': 'semantic.confidence_min',
    'semantic.hybrid_margin_min': 'semantic.ambiguity_margin',
  },
} as const satisfies {
  all: readonly string[];
  cosine: readonly string[];
  hybrid_rrf: readonly string[];
  instead: Record<string, string>;
};

export const K_MIN = 10;
export const K_MAX = 15;

export function clampK(k: number | undefined, fallback: number): number {
  const v = typeof k === 'number' && Number.isFinite(k) ? Math.floor(k) : fallback;
  return Math.min(K_MAX, Math.max(K_MIN, v));
}

export class SemanticIndex {
  private readonly vectors: SemanticVectors;
  private readonly picks: FallbackPicks;

  constructor(
    private readonly ic: IndexedCorpus,
    private readonly config: RetrievalConfig,
    embedder: Embedder,
  ) {
    this.vectors = new SemanticVectors(ic, config, embedder);
    this.picks = new FallbackPicks(ic);
  }

  /** The method's settings, the config's value else the engine default (src/core/defaults.ts). */
  private settings(): SelectSettings {
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

  select(req: SelectRequest): SelectResult | ErrorEnvelope {
    const k = clampK(req.k, this.config.k);
    const settings = this.settings();
    const top = this.ranked(req, k, settings);
    if ('error' in top) return top;
    const a: Answer = {
      recs: this.ic.records,
      top,
      base: baseAnswer(this.ic.records, top, settings, this.vectors.embedderLabel(), k),
      trace: [],
    };
    const { method, rrf_k } = settings;
    const { top1, confidence_passed, ambiguity_passed } = a.base.gates;
    if (confidence_passed && ambiguity_passed) {
      a.trace.push({
        stage: 'semantic',
        outcome: 'selected',
        detail: `${method} top1 ${top1} passed both gates`,
      });
      return pick(
        a,
        top.hits[0]!.doc,
        'semantic',
        'semantic_gates_passed',
        method === 'hybrid_rrf'
          ? `top-1 passed the confidence and ambiguity gates on the normalised RRF score of BM25 and cosine (rrf_k ${rrf_k})`
          : 'top-1 passed the confidence and ambiguity gates on the cosine',
        null,
      );
    }
    const why = gateFailure(a.base.gates);
    a.trace.push({ stage: 'semantic', outcome: 'gate_failed', detail: why });
    return this.fallback(req, a, why);
  }

  /** The top k by the method in use, with the score a selection's confidence states. */
  private ranked(req: SelectRequest, k: number, settings: SelectSettings): Ranked | ErrorEnvelope {
    if (settings.method === 'hybrid_rrf') {
      const v = this.vectors.matrixAndQuery(req);
      if ('error' in v) return v;
      return hybridTopK(this.ic, v, req.query ?? '', k, settings.rrf_k);
    }
    const c = this.vectors.topK(req, k);
    if ('error' in c) return c;
    return { hits: c.hits, scoreOf: (doc) => c.m.cosine(c.q, c.qNorm, doc) };
  }

  /** The fallback chain after a failed gate: exact key, then path priority, then no match. */
  private fallback(req: SelectRequest, a: Answer, why: string): SelectResult {
    const { trace } = a;
    if (!this.config.fallback.enabled) {
      trace.push({ stage: 'exact_key', outcome: 'skipped_disabled', detail: 'fallback disabled' });
      trace.push({ stage: 'path_priority', outcome: 'skipped_disabled', detail: 'fallback disabled' });
      return noMatch(
        a,
        'no_match_fallback_disabled',
        `semantic gates failed (${why}) and fallback is disabled`,
      );
    }

    const exact = this.picks.exactKey(req);
    if (exact) {
      trace.push({ stage: 'exact_key', outcome: 'selected', detail: exact.detail });
      return pick(
        a,
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

    const path = this.picks.pathPriority(req.query ?? '');
    if (path) {
      trace.push({ stage: 'path_priority', outcome: 'selected', detail: path.detail });
      return pick(
        a,
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
      a,
      'no_match_no_fallback_candidate',
      `semantic gates failed (${why}); no exact key matched; no source_path shares a token with the query`,
    );
  }

  retrievalResult(req: SelectRequest): RetrievalResultV1 | ErrorEnvelope {
    const k = clampK(req.k, this.config.k);
    return retrievalResult(this.ic, this.config.embedding.dimensions, this.vectors, req, k);
  }
}

interface SelectSettings {
  method: 'cosine' | 'hybrid_rrf';
  rrf_k: number;
  confidence_min: number;
  ambiguity_margin: number;
}

interface Ranked {
  hits: VectorHit[];
  scoreOf: (doc: number) => number;
}

type BaseAnswer = ReturnType<typeof baseAnswer>;

/** One select call's answer in the making: what every outcome shares, and the steps tried so far. */
interface Answer {
  recs: readonly CorpusRecord[];
  top: Ranked;
  base: BaseAnswer;
  trace: SelectFallbackStep[];
}

/** The candidates, the gates and their outcomes: the same whichever record is selected. */
function baseAnswer(
  recs: readonly CorpusRecord[],
  top: Ranked,
  s: SelectSettings,
  embedder: string,
  k: number,
) {
  const { method, rrf_k, confidence_min, ambiguity_margin } = s;
  const candidates: SelectCandidate[] = top.hits.map((h, i) => ({
    id: (recs[h.doc] as CorpusRecord).id,
    source_path: (recs[h.doc] as CorpusRecord).source_path,
    score: h.score,
    rank: i + 1,
  }));
  const top1 = top.hits[0]?.score ?? null;
  const top2 = top.hits[1]?.score ?? null;
  return {
    contract: 'memory-cli-v1' as const,
    candidates,
    gates: {
      confidence_min,
      ambiguity_margin,
      top1,
      top2,
      confidence_passed: top1 !== null && top1 >= confidence_min,
      ambiguity_passed: top1 !== null && (top2 === null || top1 - top2 >= ambiguity_margin),
      method,
      ...(method === 'hybrid_rrf' ? { rrf_k } : {}),
    },
    embedder,
    k,
  };
}

/** Which gates failed and by how much. */
function gateFailure(g: BaseAnswer['gates']): string {
  if (g.top1 === null) return 'no candidate (empty corpus)';
  return [
    g.confidence_passed ? null : `confidence ${g.top1} < confidence_min ${g.confidence_min}`,
    g.ambiguity_passed ? null : `margin ${g.top1 - (g.top2 ?? 0)} < ambiguity_margin ${g.ambiguity_margin}`,
  ]
    .filter((s) => s !== null)
    .join('; ');
}

function pick(
  a: Answer,
  doc: number,
  mode: SelectResult['selection_mode'],
  reason: string,
  detail: string,
  stage: SelectResult['fallback']['stage'],
): SelectResult {
  const r = a.recs[doc] as CorpusRecord;
  return {
    ...a.base,
    selection_mode: mode,
    selected_id: r.id,
    source_path: r.source_path,
    confidence: a.top.scoreOf(doc),
    reason,
    reason_detail: detail,
    fallback: { triggered: stage !== null, stage, trace: a.trace },
  };
}

function noMatch(a: Answer, reason: string, detail: string): SelectResult {
  return {
    ...a.base,
    selection_mode: 'no_match',
    selected_id: null,
    source_path: null,
    confidence: 0,
    reason,
    reason_detail: detail,
    fallback: { triggered: true, stage: 'no_match', trace: a.trace },
  };
}
