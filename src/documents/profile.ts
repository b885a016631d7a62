import type { Static } from '@sinclair/typebox';
import { StringEnum } from './keywords.js';

export const PROFILES = ['small', 'medium', 'large'] as const;

/** The retrieval profile a query or a config is sized for. */
export const ProfileSchema = StringEnum(PROFILES);
export type Profile = Static<typeof ProfileSchema>;
