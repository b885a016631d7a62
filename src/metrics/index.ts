/** Public API of the measures layer. */
export { RANKING_MEASURES, MEASURE_BUNDLES, findRankingMeasure } from './registry.js';
export { parseMeasureArgs, parseRankingMetricId } from './_spec.js';
export type { MeasureSpec, ParsedSpecs } from './_types.js';
export {
  evaluateTrec,
  sortRun,
  Judge,
  type TrecEvalOptions,
  type TrecEvalResult,
  type QueryValues,
} from './_evaluate.js';
export { cFixed, formatFixed4, renderTrecEval, trecEvalJson, trecLine } from './_format.js';
export * from './_types.js';
export {
  computeRunMeasures,
  rankingSpecsOf,
  rescoreRankingMeasures,
  scoreKeptRankings,
  type QrelsOf,
  type RunMeasuresInput,
  type RunMeasures,
} from './_run-measures.js';
export { GATE_MEASURES, GATE_METRIC_IDS } from './gate/registry.js';
export type { GateMeasure, GateValues, QueryCounts } from './gate/_types.js';
export { hasSelectionFields } from './gate/source-trace-completeness.js';
export { EvidenceIndex } from './_evidence.js';
export { tookFallback, usefulnessRule } from './gate/_context.js';
export { isKnownMetricId, JUDGMENT_METRICS, knownMetricIds, TIMING_METRICS } from './_known.js';
export { score, type ScoreOptions, type ScoreResult } from './_score.js';
export {
  evaluate,
  type EvaluateOptions,
  type Evaluation,
  type QrelsObject,
  type RunObject,
} from './_evaluate-objects.js';
export {
  hasSelectionStep,
  isSemanticWin,
  outcomeValues,
  semanticWinModesOf,
  SELECTION_METRICS,
  top1IdOf,
  type OutcomeFacts,
  type OutcomeValues,
} from './gate/_query-values.js';
export { rankingScores, scoredRanking } from './_ranking-scores.js';
export { meanDetectable, rateDetectable, type DetectableOptions } from './_detectable.js';
export { perQueryValues } from './_per-query.js';
export {
  deepestDepth,
  keptRankings,
  measureDepth,
  rankingHoleFills,
  topGrade,
  unjudgedWithin,
  type RankingHoleFill,
} from './_ranking-holes.js';
