/**
 * Pinned snapshots: load / import / hash / freeze / verify fixture sets (DESIGN.md "Pinned snapshots").
 * A fixture set is a folder `fixtures/<set>/` holding corpus.jsonl, queries.jsonl (judgments embedded
 * per query as `qrels`), config.json, freeze.json and PROVENANCE.md.
 */
export { FIXTURE_FILES } from './types.js';
export type { PinnedSuite, ArtifactIds, VerifyResult, FileCheck } from './types.js';
export { loadFixtureSet, resolveFixtureDir, writeFixtureSet, type FixtureSetContent } from './fixture-set.js';
export {
  computeArtifactIds,
  readArtifacts,
  artifactId,
  UNFROZEN_VERSION,
  type LoadedArtifacts,
} from './artifact-ids.js';
export {
  verifyFixtureSet,
  assertFixtureSetVerified,
  assertVerified,
  compareWithFreeze,
} from './freeze-verify.js';
export { writeFreeze, type WriteFreezeOptions, type WriteFreezeResult } from './freeze-write.js';
export { pinEmbeddings } from './pin-embeddings.js';
export { readFreeze, freezeText, FREEZE_RULES } from './freeze-file.js';
export { hashJsonlFile, hashCanonical } from './content-hash.js';
export { readConfigFile, readCorpusFile, readQuerySetFile } from './read-artifacts.js';
export { normalizeCorpusLine } from './normalize.js';
export { compareVersions, nextVersion } from './version.js';
export { importBeir, type BeirImportOptions } from './importers/beir.js';
export { importTrec, type TrecImportOptions } from './importers/trec.js';
export { importSmart, type SmartImportOptions } from './importers/smart.js';
export { importDir, type DirImportOptions } from './importers/dir.js';
export {
  locateTrecFiles,
  locateSmartFiles,
  type TrecFiles,
  type SmartFiles,
} from './importers/locate-collection.js';
export type { ImportResult } from './importers/common.js';
export { checkSnapshotChange, frozenConfigId, type SnapshotCheck } from './snapshot-change.js';
export { importSafely, type ImportSafelyOptions, type ImportSafelyResult } from './import-safely.js';
export { deriveProbes, GENERATED_PROBE_TAG, type ProbeOptions, type DerivedProbes } from './probes.js';
export { addProbes, type AddProbesOptions, type AddProbesResult } from './probes-write.js';
export { importMemoryCli, type MemoryCliImportOptions } from './importers/memory-cli.js';
export { mergeQrels, readJudgments, type QrelsMergeResult } from './qrels-merge.js';
