/** The response contracts of systems under test, each declared once (schema + derived type). */
export * from './context-load-v0.js';
export * from './context-pack.js';
export * from './error-envelope.js';
export * from './memory-cli-v1.js';
export * from './retrieval-result-v1.js';
export * from './rgate.js';
