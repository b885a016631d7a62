import type {
  CorpusRecord,
  ResolvedIntent,
  FallbackStage,
  Profile,
  RetrievalConfig,
  SelectionMode,
  WeightingMode,
} from '../documents/index.js';
import type { KuRequest } from './ku-types.js';

/**
 * Public types of the reference engine (src/engine). The `builtin` adapter in src/systems builds against
 * these; everything here is plain JSON-serialisable data so responses can be validated and fingerprinted.
 */

/** Turns text into a fixed-dimension vector. Must be deterministic (same text -> same vector, bit for bit). */
export interface Embedder {
  /** stable identifier recorded in outputs, e.g. `hashed-tfidf-768@2` */
  readonly id: string;
  readonly dimensions: number;
  embed(text: string): Float32Array;
  /** optional field-aware embedding of a record (title weighted apart from text); used when present */
  embedFields?(fields: EmbedderFields): Float32Array;
}

/** A record's text fields as an embedder sees them. */
export interface EmbedderFields {
  title?: string;
  text: string;
}

/** The error envelope every engine contract uses instead of throwing (errors are data). */
export interface ErrorEnvelope {
  error: { code: string; message: string; action: string };
}

export interface SearchHit {
  id: string;
  score: number;
}

// ---------------------------------------------------------------------------------------------
// context-load contract v0 (seed 000)
// ---------------------------------------------------------------------------------------------

export interface ContextLoadRequest {
  task: string;
  retrieval_profile?: Profile;
  weighting_mode?: WeightingMode;
  max_files?: number;
  max_chars_per_file?: number;
  tokens?: number;
  fallback_enabled?: boolean;
}

export interface ScoreBreakdown {
  lexical_score: number;
  evidence_score: number;
  outcome_score: number;
  freshness_score: number;
  combined_score: number;
}

export interface Provenance {
  source_path: string;
  record_id: string;
  kind: CorpusRecord['kind'];
  captured_at: string;
  /** sha256 of the record's full text (before truncation) */
  text_sha256: string;
}

/**
 * Bounded confidence: `value` is the combined score; the interval shows how far it could move if the
 * record's missing metadata (evidence / outcome absent, scored 0) were known: `lower` counts missing
 * components as 0 (= value), `upper` as 1. Both equal `value` when the record states every component.
 */
export interface ConfidenceBounds {
  value: number;
  lower: number;
  upper: number;
  basis: 'missing_components';
  missing: ('evidence' | 'outcome')[];
}

export type TruncationReason = 'truncated_max_chars' | 'truncated_tokens';
export type DropReason = 'budget_max_files' | 'budget_tokens';

export interface ContextLoadEntry {
  rank: number;
  record_id: string;
  source_path: string;
  kind: CorpusRecord['kind'];
  title?: string;
  text: string;
  chars: number;
  truncated: boolean;
  score_breakdown: ScoreBreakdown;
  provenance: Provenance;
  confidence: ConfidenceBounds;
  tags?: string[];
}

export interface DroppedCandidate {
  record_id: string;
  source_path: string;
  combined_score: number;
  reason: DropReason;
}

export interface TruncatedEntry {
  record_id: string;
  source_path: string;
  original_chars: number;
  emitted_chars: number;
  reason: TruncationReason;
}

export interface FallbackAttempt {
  stage: FallbackStage;
  /** how the stage chooses candidates (documented rule) */
  rule: string;
  candidates: number;
  outcome: 'selected' | 'empty' | 'skipped_disabled';
}

export interface ContextLoadResult {
  ranking_contract_version: 'v0';
  retrieval_profile: Profile;
  weighting_mode: WeightingMode;
  weights: { lexical: number; evidence: number; outcome: number; freshness: number };
  task: string;
  selected_count: number;
  /** the fallback stage that produced the entries (null when nothing matched) */
  fallback_level: FallbackStage | null;
  fallback_attempts: FallbackAttempt[];
  /** budgets in force (request > config.budgets > profile default) */
  budgets: { max_files: number; max_chars_per_file: number; tokens: number };
  /** candidate pool of the stage that answered: how many matched the stage, how many were kept (profile size) */
  pool: { size_limit: number; stage_candidates: number; pooled: number; beyond_pool: number };
  usage: { files: number; chars: number; tokens: number; token_estimate: 'ceil(chars/4)' };
  entries: ContextLoadEntry[];
  dropped: DroppedCandidate[];
  truncated: TruncatedEntry[];
  no_match: boolean;
  /** null when entries were selected; a machine-readable reason otherwise */
  reason: string | null;
  reason_detail: string | null;
  /** context-load output is tactical and non-authoritative until promoted (seed 000) */
  authority: 'non_authoritative';
  /** sensitive-tag policy: records with these tags are never candidates; how many the corpus holds */
  policy: { sensitive_tags: string[]; withheld_records: number };
}

// ---------------------------------------------------------------------------------------------
// semantic selection v1 (seed 001) and retrieval-result-v1 (seed 003)
// ---------------------------------------------------------------------------------------------

export interface SelectRequest {
  query: string;
  /** K for the cosine top-K; clamped to 10..15 */
  k?: number;
  exact_key?: string;
  /** a query vector given by the snapshot; used as is (dimension must match) */
  query_embedding?: readonly number[];
}

export interface SelectCandidate {
  id: string;
  source_path: string;
  score: number;
  rank: number;
}

export interface SelectFallbackStep {
  stage: 'semantic' | 'exact_key' | 'path_priority';
  outcome: 'selected' | 'gate_failed' | 'no_candidate' | 'skipped_disabled';
  detail: string;
}

export interface SelectResult {
  contract: 'memory-cli-v1';
  selection_mode: SelectionMode;
  /** null only for no_match */
  selected_id: string | null;
  source_path: string | null;
  /** the selected record's score under the method: cosine, or normalised RRF score (0 for no_match) */
  confidence: number;
  /** machine-readable reason code, e.g. semantic_gates_passed, fallback_exact_key_request, no_match_no_fallback_candidate */
  reason: string;
  reason_detail: string;
  candidates: SelectCandidate[];
  fallback: {
    triggered: boolean;
    stage: 'exact_key' | 'path_priority' | 'no_match' | null;
    trace: SelectFallbackStep[];
  };
  gates: {
    confidence_min: number;
    ambiguity_margin: number;
    top1: number | null;
    top2: number | null;
    confidence_passed: boolean;
    ambiguity_passed: boolean;
    /** which score the gates read: the cosine, or the normalised RRF score of BM25 + cosine */
    method: 'cosine' | 'hybrid_rrf';
    /** hybrid_rrf only: the RRF constant */
    rrf_k?: number;
  };
  embedder: string;
  k: number;
}

export interface RetrievalResultItem {
  chunk_id: string;
  document_id: string;
  text_content: string;
  page: number | null;
  section: string | null;
  coordinates: null;
  rank: number;
  score: number;
}

export interface RetrievalResultV1 {
  schema_version: '1.0.0';
  query_embedding_dimensions: number;
  k_requested: number;
  k_returned: number;
  query_hash: string;
  score_semantics: 'cosine_similarity';
  results: RetrievalResultItem[];
}

export interface CreateEngineOptions {
  embedder?: Embedder;
}

/** Size of the lexical index (for benchmarks and `--json` diagnostics). */
export interface EngineStats {
  documents: number;
  terms: number;
  postings: number;
  tokens: number;
  /** bytes of the index's typed arrays (postings, offsets, lengths, norms, query scratch) */
  array_bytes: number;
  /** estimated bytes of the term dictionary and surface-form table (JS strings and a Map: not exactly measurable) */
  vocabulary_bytes_estimate: number;
}

export interface Engine {
  readonly config: RetrievalConfig;
  stats(): EngineStats;
  /** plain BM25 ranking, exact top-k, total order (score desc, then id asc) */
  search(text: string, k: number): SearchHit[];
  /** context-load contract v0 (seed 000) */
  contextLoad(req: ContextLoadRequest): ContextLoadResult;
  /** semantic selection v1 with deterministic fallback (seed 001): memory-cli-v1 answer or the error envelope */
  select(req: SelectRequest): SelectResult | ErrorEnvelope;
  /** seed 003 retrieval-result-v1 view */
  retrievalResult(req: SelectRequest): RetrievalResultV1 | ErrorEnvelope;
  /** DS012 KU context matching: one intent resolved over the hierarchical corpus (ku-context.ts) */
  resolveIntent(req: KuRequest): ResolvedIntent;
}
