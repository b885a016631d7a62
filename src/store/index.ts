export * from './types.js';
export { SqliteRunStore } from './sqlite-store.js';
export { MemoryRunStore } from './memory-store.js';
export { asAsync, type AsyncRunStore } from './async-store.js';
export { PgRunStore, redactDbUrl, type PgStoreOptions } from './pg-store.js';
