/** Public API of the statistics layer. */
export { wilsonInterval, Z95 } from './wilson-interval.js';
export {
  bootstrapMeanCi,
  pairedBootstrapMeanCi,
  DEFAULT_RESAMPLES,
  type BootstrapOptions,
} from './bootstrap.js';
export {
  pairedRandomizationTest,
  pairedRandomizationP,
  EXACT_MAX_N,
  DEFAULT_PERMUTATIONS,
  type RandomizationResult,
} from './randomization-test.js';
export { holmAdjust, holmReject } from './holm.js';
