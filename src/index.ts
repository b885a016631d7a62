/** rgate as a library: everything a team needs to gate retrieval from its own test suite. */
export { RgateError, isRgateError, EXIT, type ExitCode, type RgateErrorCode } from './core/errors.js';
export { canonicalJson, compareCodeUnits } from './core/canonical-json.js';
export { sha256, sha256File, type Sha256 } from './core/hash.js';
export { createPrng, deriveSeed, shuffled, type Prng } from './core/prng.js';
export { parseJsonl, readJsonFile, type JsonlLine } from './core/jsonl.js';
export { DEFAULT_CONFIG, SUITE_DEFAULTS, SYSTEM_DEFAULTS, STATS_DEFAULTS } from './core/defaults.js';
export { resolveConfig } from './core/resolve-config.js';
export * from './documents/index.js';
export * from './engine/index.js';
export {
  createSystem,
  BuiltinAdapter,
  CommandAdapter,
  HttpAdapter,
  CONTRACT_NAMES,
  normalizeResponse,
  normalizeText,
  expandArgv,
  loadRgateConfig,
  findRgateConfig,
  resolveFixtureDir,
  resolveGatePath,
  type SystemAdapter,
  type RequestContext,
  type RawObservation,
  type SuiteContext,
  type NormalizedResponse,
  type LoadedRgateConfig,
} from './systems/index.js';
// the published JSON Schemas under the names they have always had
export {
  RgateConfigFileSchema as rgateConfigSchema,
  GatePolicySchema as gatePolicySchema,
  ReportSchema as reportSchema,
  CorpusLineSchema as corpusRecordSchema,
  QueryRecordSchema as queryRecordSchema,
  ConfigFileSchema as configSchema,
  FreezeSchema as freezeSchema,
  type RunRow as StoredRun,
} from './documents/index.js';
export {
  evaluateGate,
  loadGatePolicy,
  parseGatePolicy,
  type GateInput,
  type ChecklistEvidence,
} from '../gates/index.js';
export {
  renderReport,
  renderTerminal,
  renderJson,
  renderHtml,
  renderMarkdown,
  renderJunit,
  REPORT_FORMATS,
  type ReportFormat,
} from '../reports/index.js';
export {
  loadFixtureSet,
  verifyFixtureSet,
  assertFixtureSetVerified,
  computeArtifactIds,
  writeFreeze,
  readFreeze,
  writeFixtureSet,
  importBeir,
  importTrec,
  importSmart,
  importDir,
  compareVersions,
  FIXTURE_FILES,
  resolveFixtureDir as resolveFixtureSetDir,
  type PinnedSuite,
  type VerifyResult,
  type ArtifactIds,
  type WriteFreezeOptions,
  type ImportResult,
} from './snapshot/index.js';
export {
  DocTable,
  readQrelsFile,
  readRunFile,
  parseQrels,
  parseRun,
  writeRun,
  runFromRows,
  qrelsFromEntries,
  type Qrels,
  type TrecRun,
  type TrecRunLine,
} from './trec/index.js';
export {
  evaluate,
  type EvaluateOptions,
  type Evaluation,
  type QrelsObject,
  type RunObject,
  score,
  type ScoreOptions,
  type ScoreResult,
  computeRunMeasures,
  isKnownMetricId,
  knownMetricIds,
  evaluateTrec,
  parseMeasureArgs,
  renderTrecEval,
  trecEvalJson,
  RANKING_MEASURES,
  GATE_MEASURES,
  MEASURE_BUNDLES,
  type RunMeasuresInput,
  type RunMeasures,
  type RankingMeasure,
  type GateMeasure,
  type TrecEvalOptions,
  type TrecEvalResult,
} from './metrics/index.js';
export {
  wilsonInterval,
  bootstrapMeanCi,
  pairedBootstrapMeanCi,
  pairedRandomizationTest,
  pairedRandomizationP,
  holmAdjust,
  holmReject,
} from './stats/index.js';
export { runSuite, type RunSuiteOptions, type RunOutcome } from '../harness/run-suite.js';
export { buildReplayProof } from '../harness/replay-proof.js';
export { fingerprint } from '../harness/fingerprint.js';
export {
  MemoryRunStore,
  SqliteRunStore,
  PgRunStore,
  asAsync,
  type AsyncRunStore,
  type RunStore,
} from './store/index.js';
export { historyFromStore, buildHistory, sparkline } from '../history/trends.js';
export { setSuiteBaseline, showBaseline } from '../history/baseline.js';
export { resolveBaseline, storedBaselineFor, type ResolvedBaseline } from '../harness/run-baseline.js';
export { checkSnapshotChange } from './snapshot/snapshot-change.js';
export { diffReports } from '../history/diff.js';
export {
  runCompare,
  analyzeCompare,
  saveSession,
  loadSession,
  type CompareOptions,
} from '../history/compare.js';
export { parseSweep, sweepVariants, type VariantSpec } from '../history/compare-variants.js';
export { perQueryValues, pairedTest, applyHolm } from '../history/compare-stats.js';
export { buildCloseout } from '../history/closeout.js';
export { parseResiduals, readResiduals } from '../history/closeout-residuals.js';
export {
  renderSessionTerminal,
  renderSessionJson,
  renderSessionMarkdown,
  renderSessionHtml,
} from '../reports/history/compare.js';
export {
  renderHistoryTerminal,
  renderHistoryJson,
  renderHistoryMarkdown,
  renderHistoryHtml,
  renderDiffTerminal,
  renderDiffJson,
  renderDiffMarkdown,
} from '../reports/history/trends.js';
export {
  renderCloseoutMarkdown,
  renderCloseoutHtml,
  renderCloseoutJson,
} from '../reports/history/closeout.js';
