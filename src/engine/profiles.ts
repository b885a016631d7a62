import type { Profile, Weighting, Weights, WeightingMode } from '../documents/index.js';

/**
 * What `retrieval_profile` changes (context-load v0). A larger profile looks at a deeper candidate
 * pool (top-N by BM25 within the fallback stage) and packs more, larger files. Budgets given in the
 * request or in config.budgets override these defaults; the pool size is the profile's alone.
 */
export interface ProfileDefaults {
  candidate_pool: number;
  max_files: number;
  max_chars_per_file: number;
  tokens: number;
}

export const PROFILE_DEFAULTS: Readonly<Record<Profile, Readonly<ProfileDefaults>>> = {
  small: { candidate_pool: 20, max_files: 3, max_chars_per_file: 2000, tokens: 1500 },
  medium: { candidate_pool: 50, max_files: 6, max_chars_per_file: 4000, tokens: 4000 },
  large: { candidate_pool: 100, max_files: 12, max_chars_per_file: 8000, tokens: 12000 },
};

// declared with the documents, so a report can state the weights a mode resolves to
export type { Weights };

/** The seed's presets, exactly (000 "Default weighting presets"). */
export const WEIGHT_PRESETS: Readonly<Record<WeightingMode, Readonly<Weights>>> = {
  uniform: { lexical: 0.55, evidence: 0.2, outcome: 0.15, freshness: 0.1 },
  evidence_outcome_bias: { lexical: 0.4, evidence: 0.3, outcome: 0.2, freshness: 0.1 },
};

/** A weighting mode with the weights it resolves to (what a report shows beside the mode's name). */
export function weightingOf(mode: WeightingMode): Weighting {
  return { mode, weights: { ...WEIGHT_PRESETS[mode] } };
}

/** Token estimate used for the token budget and usage: ceil(chars / 4) (a common rule of thumb for English). */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** A candidate is truncated to fit the remaining token budget only if at least this many tokens remain. */
export const MIN_TRUNCATED_TOKENS = 32;
