export * from './errors.js';
export * from './canonical-json.js';
export * from './hash.js';
export * from './prng.js';
export * from './jsonl.js';
export * from './defaults.js';
export * from './resolve-config.js';
