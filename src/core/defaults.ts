import type { RetrievalConfig, SelectionMode } from '../documents/index.js';

/**
 * Every default rgate applies, in one table. Code reads its defaults from here (`?? SUITE_DEFAULTS.seed`),
 * and the documents' field comments, README and `--help` state the same values (a test holds the
 * documents' comments to this table).
 */

/**
 * Config keys a config.json leaves out. The resolved (complete) config is what gets hashed into
 * config_id, so changing a value here changes every config id.
 */
export const DEFAULT_CONFIG: RetrievalConfig = {
  mode: 'context-load',
  retrieval_profile: 'medium',
  weighting_mode: 'uniform',
  k: 10,
  budgets: {},
  fallback: { enabled: true },
  semantic: { confidence_min: 0.35, ambiguity_margin: 0.02 },
  embedding: { dimensions: 768 },
  bm25: { k1: 0.9, b: 0.4 },
  analyzer: { lowercase: true, stopwords: true, stemmer: 'porter' },
  as_of: '1970-01-01T00:00:00Z',
  freshness_half_life_days: 90,
};

/**
 * Semantic selection settings a config may leave out. They are not in DEFAULT_CONFIG (so no frozen
 * config id moves); the engine applies them. Calibrated on Cranfield and CACM only, never on the
 * context-load set the semantic suite is gated on: `benchmarks/semantic-calibration.ts`, its rule and
 * table in benchmarks/README.md and benchmarks/results/semantic-calibration.json.
 */
export const SEMANTIC_DEFAULTS = {
  method: 'hybrid_rrf',
  /** RRF constant: best mean MRR@10 of {10, 20, 30, 60} (memory-cli uses 60) */
  rrf_k: 10,
  /** each ranking (BM25, cosine) contributes its first this-many records to the fusion */
  rrf_depth: 100,
  /**
   * 0.96: the top-1 is first in BOTH rankings (rank 1 + rank 2 gives 0.958 at k 10). No threshold
   * reached 0.8 precision on the calibration sets; this one handles the most answerable and
   * unanswerable queries right (see the benchmark's rule).
   */
  hybrid_confidence_min: 0.96,
  hybrid_margin_min: 0,
} as const;

/** HTTP embedding servers, called only by `rgate freeze` to pin vectors. */
export const EMBEDDER_DEFAULTS = {
  timeout_ms: 30_000,
  /** texts per OpenAI-compatible request (Ollama's /api/embeddings takes one text per request) */
  batch_size: 64,
} as const;

/** Optional fields of a suite in rgate.config.json (and of `runSuite`). */
export const SUITE_DEFAULTS = {
  replays: 5,
  concurrency: 1,
  restart_between_replays: false,
  relevance_level: 1,
  seed: 20261122,
} as const;

/** Systems under test (command and http adapters). */
export const SYSTEM_DEFAULTS = {
  timeout_ms: 30_000,
  max_output_bytes: 16 * 1024 * 1024,
  /** stderr kept with a failure: its last this-many bytes */
  stderr_keep_bytes: 8 * 1024,
  /** stderr shown with an error in a report: its last lines, at most this many characters */
  stderr_report_chars: 400,
  /** stderr of a successful request kept as warnings: at most this many distinct lines, each at most warning_chars */
  warning_lines: 8,
  warning_chars: 240,
  /** distinct warning lines a report lists (the rest are counted, and every one stays on its observation) */
  report_warning_lines: 20,
  /** distinct (stage, reason) pairs of fallbacks a report lists (the rest are counted; each stays on its observation) */
  report_fallback_reason_lines: 20,
  /** a run stops once this many requests in a row failed while none has succeeded (system down) */
  down_after_failures: 10,
} as const;

/**
 * Response contracts. `semantic_win_modes`: the selection modes that count as "selected semantically"
 * for seed 001's top-1 useful rate (a system's `semantic_win_modes` overrides it). Hybrid
 * reciprocal-rank fusion ranks with the semantic signal, so it counts; the fallbacks and no_match do not.
 */
export const CONTRACT_DEFAULTS = {
  semantic_win_modes: ['semantic', 'hybrid_rrf'],
} as const satisfies { semantic_win_modes: readonly SelectionMode[] };

/** Interval and test statistics (bootstrap intervals, paired randomization tests, Holm). */
export const STATS_DEFAULTS = {
  alpha: 0.05,
  resamples: 2000,
  permutations: 10_000,
} as const;

/** `rgate probes add`: probes per kind, and the seed that samples records and makes no-match words. */
export const PROBE_DEFAULTS = {
  count: 3,
  seed: 20261122,
} as const;

/** KU context matching (DS012, engine `ku` mode): the constants of level-aware selection. */
export const KU_MATCHING_DEFAULTS = {
  /** a KB unit passes a strategy when its level score (half own BM25, half subtree BM25, each against the best at its level) reaches this */
  relevance_min: 0.5,
  /** ... and when it, or what it summarises, holds at least this share of the intent's terms */
  coverage_min: 0.5,
  /** fewer passing units than this at the intent's level escalates to the secondary strategies */
  min_candidates: 1,
  /** an over-budget unit contributes at most this many of its most relevant children */
  split_children: 2,
  /** KB guidance units per role (current-turn guidance is never capped) */
  guidance_per_role: 3,
  /** a KB guidance / strategy unit outside the selected areas needs this share of the best lexical score */
  guidance_min: 0.2,
  strategy_units: 2,
  session_units: 3,
} as const;

/**
 * The newest runs of a suite (of any status) a regression alarm is decided from, whatever window is
 * shown around them: `rgate history` (20 runs by default, `--limit` more), the dashboard's trend (100)
 * and a run report's trend section see the same alarm for the same stored runs. A window of fewer
 * runs (`rgate history --limit 5`) decides it from the runs it holds.
 */
export const ALARM_WINDOW = 20;

/**
 * What a detectable effect (a gate rule's, a comparison's) and `rgate plan` are stated at: 80% power
 * and alpha 0.05 (the field's convention); a mean over fewer than `resample_below` units is read by
 * resampling its values (`sims` simulated samples per effect tried) instead of the t quantiles.
 */
export const POWER_DEFAULTS = {
  power: 0.8,
  alpha: 0.05,
  resample_below: 30,
  sims: 1000,
  seed: 37,
} as const;
