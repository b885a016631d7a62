/**
 * Shared domain types (DESIGN.md "Pinned snapshots", "Systems under test", "Measures").
 * Every layer speaks these; JSON Schemas in src/contracts validate the files that produce them.
 */

export type Profile = 'small' | 'medium' | 'large';
export type WeightingMode = 'uniform' | 'evidence_outcome_bias';
export type RecordKind = 'canonical' | 'tactical';
export type KuLevel = 'summary' | 'intermediate' | 'leaf';
export type SelectionMode = 'semantic' | 'fallback_exact_key' | 'fallback_path_priority' | 'no_match';
export const SELECTION_MODES: readonly SelectionMode[] = [
  'semantic',
  'fallback_exact_key',
  'fallback_path_priority',
  'no_match',
];
export type FallbackStage = 'restricted' | 'relaxed' | 'unrestricted';

/** One corpus record after loading (BEIR `_id/title/text` is normalised into this). */
export interface CorpusRecord {
  id: string;
  source_path: string;
  title?: string;
  text: string;
  kind: RecordKind;
  /** ISO-8601 */
  captured_at: string;
  evidence?: number;
  outcome?: number;
  tags?: string[];
  trust_class?: string;
  key?: string;
  path_priority?: number;
  level?: KuLevel;
  parent_id?: string;
  embedding?: number[];
  /** project_dir / document-tree capture: the file as it was snapshotted (src/snapshot importers) */
  source?: { sha256: string; size: number; mtime: string };
}

export interface QueryExpectation {
  selection_mode?: SelectionMode;
  no_match?: boolean;
}

/** One query of a query set, with its judgments. */
export interface QueryRecord {
  query_id: string;
  text: string;
  profile?: Profile;
  exact_key?: string;
  tags?: string[];
  /** graded judgments: record id -> grade (higher = more relevant; 0 = judged not relevant) */
  qrels?: Record<string, number>;
  useful_ids?: string[];
  useful_paths?: string[];
  must_include_signals_any?: string[];
  must_include_tags_any?: string[];
  must_exclude_tags_all?: string[];
  expect?: QueryExpectation;
  embedding?: number[];
}

export interface AnalyzerConfig {
  lowercase: boolean;
  stopwords: boolean;
  stemmer: 'porter' | 'none';
}

/** The retrieval config snapshot (config.json of a fixture set). */
export interface RetrievalConfig {
  /** which engine path answers: plain BM25 ranking, context-load v0, or semantic selection v1 */
  mode: 'bm25' | 'context-load' | 'semantic';
  retrieval_profile: Profile;
  weighting_mode: WeightingMode;
  /** results per query (bm25 mode: ranking depth; semantic: K, clamped to 10..15) */
  k: number;
  budgets: { max_files?: number; max_chars_per_file?: number; tokens?: number };
  fallback: { enabled: boolean };
  semantic: { confidence_min: number; ambiguity_margin: number };
  embedding: { dimensions: number };
  bm25: {
    k1: number;
    b: number;
    /** optional (engine): 'lucene' (default; Anserini/Lucene >= 8 BM25) or 'fts5' (SQLite FTS5 bm25()) */
    formula?: 'lucene' | 'fts5';
    /** optional (engine): 'exact' document lengths (default) or Lucene's lossy one-byte length norm */
    length_norm?: 'exact' | 'lucene';
  };
  analyzer: AnalyzerConfig;
  /** freshness is measured from this instant, never the wall clock (ISO-8601) */
  as_of: string;
  /** freshness half-life in days */
  freshness_half_life_days: number;
  /**
   * optional (engine): records carrying any of these tags are never returned by context-load or
   * semantic selection (default when absent: secret, credential, pii; [] disables the policy)
   */
  sensitive_tags?: string[];
}

export interface RankedItem {
  id: string;
  source_path: string;
  score: number;
  score_breakdown?: Record<string, number>;
  tags?: string[];
  /** characters of the item that were emitted (after truncation) */
  chars?: number;
}

export interface ObservationError {
  /** e.g. timeout, crash, non_json, contract_invalid, http_status, spawn_failed, embedding_dimension_mismatch */
  kind: string;
  message: string;
  stderr?: string;
}

/** One request of one replay, normalised from whatever the system under test answered. */
export interface Observation {
  query_id: string;
  replay: number;
  ok: boolean;
  error?: ObservationError;
  selection_mode?: SelectionMode;
  selected_id?: string;
  source_path?: string;
  /** a no_match answer that states its reason */
  no_match_reason?: string;
  ranked: RankedItem[];
  fallback: { triggered: boolean; stage?: string; attempts?: string[] };
  usage: { files: number; chars: number; tokens: number };
  latency_ms: number;
  contract: { name: string; valid: boolean; errors: string[] };
  /** budgets that applied to this request (so budget compliance can be checked after the fact) */
  budgets?: { max_files?: number; max_chars_per_file?: number; tokens?: number };
  profile?: Profile;
  fingerprint: string;
}

/** A proportion that always shows what it counted. rate and wilson95 are null when denominator is 0 ("not measured"). */
export interface RateValue {
  kind: 'rate';
  numerator: number;
  denominator: number;
  rate: number | null;
  wilson95: [number, number] | null;
}

/** A mean over n units with a seeded bootstrap 95% interval; null when n is 0. */
export interface MeanValue {
  kind: 'mean';
  n: number;
  mean: number | null;
  ci95: [number, number] | null;
}

/** Latency-style order statistics over n samples. */
export interface QuantileValue {
  kind: 'quantiles';
  n: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export type MeasureValue = RateValue | MeanValue | QuantileValue;
