/** Response contracts of systems under test: JSON Schemas and their compiled ajv validators. */
export * from './error-envelope.js';
export * from './rgate.js';
export * from './context-load-v0.js';
export * from './memory-cli-v1.js';
export * from './retrieval-result-v1.js';
export * from './context-pack.js';

/** Names of the response contracts (the `contract` of a command or http system). `trec`-style output is `rgate`. */
export const RESPONSE_CONTRACTS = [
  'rgate',
  'context-load-v0',
  'memory-cli-v1',
  'retrieval-result-v1',
  'context-pack',
] as const;
export type ResponseContractName = (typeof RESPONSE_CONTRACTS)[number];
