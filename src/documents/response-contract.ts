import type { Static } from '@sinclair/typebox';
import { StringEnum } from './keywords.js';

/**
 * Names of the response contracts rgate understands (the `contract` of a command or http system).
 * `trec`-style output (`{results: [{id, score}]}`) is part of `rgate`.
 */
export const RESPONSE_CONTRACTS = [
  'rgate',
  'context-load-v0',
  'memory-cli-v1',
  'retrieval-result-v1',
  'context-pack',
  'resolved-intent',
] as const;
export const ResponseContractNameSchema = StringEnum(RESPONSE_CONTRACTS);
export type ResponseContractName = Static<typeof ResponseContractNameSchema>;
