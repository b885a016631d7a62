/** Public API of the statistics layer. */
export { wilsonInterval } from './wilson-interval.js';
export { bootstrapMeanCi, pairedBootstrapMeanCi } from './bootstrap.js';
export { pairedRandomizationTest, pairedRandomizationP } from './randomization-test.js';
export { holmAdjust, holmReject } from './holm.js';
export { pairedTTest, studentTwoSidedP } from './t-test.js';
export {
  binomialCritical,
  binomialDetectableDrop,
  binomialDropPower,
  binomialUnitsNeeded,
  MAX_PLANNED_N,
  meanSd,
  resampledDetectableEffect,
  resampledPower,
  tDetectableEffect,
  tUnitsNeeded,
  type PowerSettings,
} from './power.js';
export { cohenKappa, kappaInterval, type KappaWeights } from './kappa.js';
