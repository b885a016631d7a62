/** Response contracts of systems under test: JSON Schemas and their compiled ajv validators. */
export * from './error-envelope.js';
export * from './rgate.js';
export * from './context-load-v0.js';
export * from './memory-cli-v1.js';
export * from './retrieval-result-v1.js';
export * from './context-pack.js';
