import type { Static } from '@sinclair/typebox';
import { StringEnum } from './keywords.js';

/** Which way a metric improves. */
export const BetterSchema = StringEnum(['higher', 'lower']);
export type Better = Static<typeof BetterSchema>;
