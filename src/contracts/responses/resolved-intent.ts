import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ResolvedIntentSchema, type ResolvedIntent } from '../../documents/index.js';
import { compileSchema } from '../ajv.js';

/**
 * DS012 `ResolvedIntent` response contract: one resolved intent per request, from any KU context
 * matcher (command or http). The schema is the one document in src/documents; objects are open, so
 * a producer's own diagnostics pass, and only what DS012 names (and the unit fields rgate's KU
 * measures read) is required.
 */
export const validateResolvedIntent: ValidateFunction<ResolvedIntent> = compileSchema<ResolvedIntent>(
  ResolvedIntentSchema,
  'resolved-intent',
);
