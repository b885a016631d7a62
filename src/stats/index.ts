/** Public API of the statistics layer. */
export { wilsonInterval, Z95 } from './wilson-interval.js';
export { bootstrapMeanCi, pairedBootstrapMeanCi, type BootstrapOptions } from './bootstrap.js';
export {
  pairedRandomizationTest,
  pairedRandomizationP,
  EXACT_MAX_N,
  type RandomizationResult,
} from './randomization-test.js';
export { holmAdjust, holmReject } from './holm.js';
