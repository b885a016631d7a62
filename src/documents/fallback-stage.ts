import type { Static } from '@sinclair/typebox';
import { StringEnum } from './keywords.js';

/** The context-load fallback stages, in the order they are tried. */
export const FALLBACK_STAGES = ['restricted', 'relaxed', 'unrestricted'] as const;

export const FallbackStageSchema = StringEnum(FALLBACK_STAGES);
export type FallbackStage = Static<typeof FallbackStageSchema>;
