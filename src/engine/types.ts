import type {
  ContextLoadResult,
  ErrorEnvelope,
  Profile,
  ResolvedIntent,
  RetrievalConfig,
  RetrievalResultV1,
  SelectResult,
  WeightingMode,
} from '../documents/index.js';
import type { KuRequest } from './ku-types.js';

/**
 * Public types of the reference engine (src/engine). The `builtin` adapter in src/systems builds against
 * these. The engine's answers are documents, declared once in src/documents/responses/engine-*.ts (each
 * derived from the contract it answers under) and re-exported here under the engine's names.
 */
export type {
  ConfidenceBounds,
  ContextLoadEntry,
  ContextLoadResult,
  DropReason,
  DroppedCandidate,
  ErrorEnvelope,
  FallbackAttempt,
  Provenance,
  RetrievalResultItem,
  RetrievalResultV1,
  ScoreBreakdown,
  SelectCandidate,
  SelectFallbackStep,
  SelectResult,
  TruncatedEntry,
  TruncationReason,
} from '../documents/index.js';

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
