export * from './types.js';
export { SqliteRunStore, migrate } from './sqlite-store.js';
export { MemoryRunStore } from './memory-store.js';
export { MIGRATIONS } from './migrations.js';
