/** rgate as a library: everything a team needs to gate retrieval from its own test suite. */
export * from './core/index.js';
