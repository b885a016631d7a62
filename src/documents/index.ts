/**
 * Every document rgate reads or writes, declared once: a TypeBox schema per document, its JSON
 * Schema for ajv (src/contracts compiles the ones that check input), and its TypeScript type
 * derived from that same schema. The bottom layer: imports nothing of the project.
 */
export * from './artifact-refs.js';
export * from './baseline-info.js';
export * from './beir-query-line.js';
export * from './better.js';
export * from './closeout.js';
export * from './compare-session.js';
export * from './compare-session-list.js';
export * from './corpus-record.js';
export * from './contract-violations.js';
export * from './dashboard.js';
export * from './detectable.js';
export * from './error-summary.js';
export * from './peer-figures.js';
export * from './fallback-reasons.js';
export * from './fallback-stage.js';
export * from './freeze.js';
export * from './freeze-result.js';
export * from './gate-policy.js';
export * from './gate-result.js';
export * from './history-view.js';
export * from './import-result.js';
export * from './init-result.js';
export * from './ku-judgment.js';
export * from './ku-observation.js';
export * from './measure-value.js';
export * from './metric-entry.js';
export * from './observation.js';
export * from './paired-test.js';
export * from './probes-result.js';
export * from './profile.js';
export * from './query-outcome.js';
export * from './query-record.js';
export * from './replay-proof.js';
export * from './run-evidence.js';
export * from './report.js';
export * from './residual-risk.js';
export * from './resolved-intent.js';
export * from './response-contract.js';
export * from './retrieval-config.js';
export * from './rgate-config.js';
export * from './run-diff.js';
export * from './run-row.js';
export * from './selection-mode.js';
export * from './system-spec.js';
export * from './shard-file.js';
export * from './label.js';
export * from './label-result.js';
export * from './responses/index.js';
export { ONE_WORD_PATTERN } from './keywords.js';
export * from './run-upload.js';
export * from './score-json.js';
export * from './upload-result.js';
export * from './verify-result.js';
export * from './server-requests.js';
