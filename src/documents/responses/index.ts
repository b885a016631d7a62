/** The response contracts of systems under test, each declared once (schema + derived type). */
export * from './context-load-v0.js';
export * from './context-pack.js';
export * from './error-envelope.js';
export * from './memory-cli-v1.js';
export * from './retrieval-result-v1.js';
export * from './rgate.js';
// the reference engine's answers under those contracts (src/engine emits them)
export * from './engine-context-load.js';
export * from './engine-error.js';
export * from './engine-retrieval-result.js';
export * from './engine-select.js';
