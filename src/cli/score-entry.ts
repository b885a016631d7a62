/** What the `rgate score` bundle exports (scripts/bundle-score.mjs bundles this file; bin.cts loads it). */
export { runScoreCli } from './score-main.js';
