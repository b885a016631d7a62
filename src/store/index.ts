export * from './types.js';
export { SqliteRunStore } from './sqlite-store.js';
export { MemoryRunStore } from './memory-store.js';
