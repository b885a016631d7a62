import type { Static } from '@sinclair/typebox';
import { StringEnum } from './keywords.js';

const MODES = ['semantic', 'fallback_exact_key', 'fallback_path_priority', 'no_match'] as const;

/** How an answer was selected (seed 003): semantically, by one of the fallbacks, or not at all. */
export const SelectionModeSchema = StringEnum(MODES);
export type SelectionMode = Static<typeof SelectionModeSchema>;

export const SELECTION_MODES: readonly SelectionMode[] = MODES;
