/** rgate as a library: everything a team needs to gate retrieval from its own test suite. */
export * from './core/index.js';
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
  withSuiteDefaults,
  resolveFixtureDir,
  resolveGatePath,
  SUITE_DEFAULTS,
  type SystemAdapter,
  type SystemSpec,
  type BuiltinSystemSpec,
  type CommandSystemSpec,
  type HttpSystemSpec,
  type RequestContext,
  type RawObservation,
  type SuiteContext,
  type NormalizedResponse,
  type LoadedRgateConfig,
  type RgateConfigFile,
  type SuiteSpec,
} from './systems/index.js';
export { rgateConfigSchema } from './contracts/rgate-config.js';
export { RESPONSE_CONTRACTS } from './contracts/responses/index.js';
export {
  evaluateGate,
  loadGatePolicy,
  parseGatePolicy,
  type GateInput,
  type ChecklistEvidence,
} from '../gates/index.js';
export type { GatePolicy, GateRule } from './contracts/gate-policy.js';
export { gatePolicySchema } from './contracts/gate-policy.js';
export { reportSchema } from './contracts/report-schema.js';
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
  type Freeze,
  type FreezeHistoryEntry,
  type WriteFreezeOptions,
  type ImportResult,
} from './snapshot/index.js';
export { corpusRecordSchema } from './contracts/corpus.js';
export { queryRecordSchema } from './contracts/query-set.js';
export { configSchema } from './contracts/config.js';
export { freezeSchema } from './contracts/freeze.js';
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
  type RunRow,
} from './trec/index.js';
export {
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
export {
  runSuite,
  DEFAULT_REPLAYS,
  DEFAULT_SEED,
  type RunSuiteOptions,
  type RunOutcome,
} from '../harness/run-suite.js';
export { buildReplayProof } from '../harness/replay-proof.js';
export { fingerprint } from '../harness/fingerprint.js';
export { MemoryRunStore, SqliteRunStore, type RunStore, type RunRow as StoredRun } from './store/index.js';
export {
  historyFromStore,
  buildHistory,
  sparkline,
  type HistoryView,
  type MetricTrend,
} from '../history/trends.js';
export { setSuiteBaseline, showBaseline } from '../history/baseline.js';
export { resolveBaseline, storedBaselineFor, type ResolvedBaseline } from '../harness/run-baseline.js';
export { checkSnapshotChange } from './snapshot/snapshot-change.js';
export { diffReports, type RunDiff, type QueryChange } from '../history/diff.js';
export {
  runCompare,
  analyzeCompare,
  saveSession,
  loadSession,
  COMPARE_SCHEMA_VERSION,
  type CompareSession,
  type CompareOptions,
} from '../history/compare.js';
export { parseSweep, sweepVariants, type VariantSpec, type SweepSpec } from '../history/compare-variants.js';
export { perQueryValues, pairedTest, applyHolm, type PairedTest } from '../history/compare-stats.js';
export { buildCloseout, CLOSEOUT_SCHEMA_VERSION, type CloseoutDoc } from '../history/closeout.js';
export { parseResiduals, readResiduals, type ResidualRisk } from '../history/closeout-residuals.js';
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
