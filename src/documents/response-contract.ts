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

/**
 * Contracts whose answers list items in rank order with scores that need not follow it: memory-cli-v1
 * prints candidates in rank order with per-signal confidences (a path-priority fallback answers every
 * candidate at confidence 0), resolved-intent ranks by `kbUnits` order. A fact about each contract,
 * read where rankings are scored (src/metrics) and where order is checked (ordering_compliance).
 */
export const ORDER_IS_RANK_CONTRACTS: readonly string[] = [
  'memory-cli-v1',
  'resolved-intent',
] satisfies ResponseContractName[];
