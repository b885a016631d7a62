import type { Static } from '@sinclair/typebox';
import { StringEnum } from './keywords.js';

const MODES = ['semantic', 'hybrid_rrf', 'fallback_exact_key', 'fallback_path_priority', 'no_match'] as const;

/**
 * How an answer was selected (seed 003): semantically, by hybrid reciprocal-rank fusion (AthenaMind
 * memory-cli `--mode hybrid`), by one of the fallbacks, or not at all. Which of these count as a
 * semantic win is a setting of the system's contract (`semantic_win_modes`), not of this list.
 */
export const SelectionModeSchema = StringEnum(MODES);
export type SelectionMode = Static<typeof SelectionModeSchema>;

export const SELECTION_MODES: readonly SelectionMode[] = MODES;

/** How reports and comparisons name an answer that carries no selection mode: a plain ranking, not no_match. */
export const RANKING_ONLY = 'none (ranking only)';
