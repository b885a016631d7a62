/** Public API of the reference engine. Other layers import from here only. */
export * from './types.js';
export { createEngine } from './engine.js';
export type { KuRequest } from './ku-types.js';
export {
  createHashedEmbedder,
  createTfidfHashedEmbedder,
  HASHED_EMBEDDER_ID,
  TFIDF_EMBEDDER_ID,
  TFIDF_DEFAULTS,
  type TfidfEmbedderOptions,
} from './hashed-embedder.js';
export {
  PROFILE_DEFAULTS,
  WEIGHT_PRESETS,
  estimateTokens,
  type ProfileDefaults,
  type Weights,
} from './profiles.js';
export { DEFAULT_SENSITIVE_TAGS } from './indexed-corpus.js';
export { engineReads, readersOf, readInstead } from './engine-reads.js';
export { clampK, K_MIN, K_MAX } from './semantic.js';
export { compareCandidates } from './context-load.js';
