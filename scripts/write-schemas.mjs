/**
 * Writes the published JSON Schemas (the same objects src/contracts/schemas.test.ts pins) to
 * dist/schemas/<name>.schema.json after tsc, so a user's editor can check rgate.config.json, a gate
 * policy or a fixture file against node_modules/rgate/dist/schemas/ (rgate init points
 * rgate.config.json's "$schema" there), and a script can check what a command prints with --json
 * (test/json-outputs.test.ts validates each command's real output against these files).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = await import(`${root}dist/src/documents/index.js`);
// name -> schema: dist/schemas/<name>.schema.json, "$id" https://rgate.dev/schemas/<name>.json
const SCHEMAS = {
  // files a user writes or rgate reads
  'rgate.config': docs.RgateConfigFileSchema,
  'gate-policy': docs.GatePolicySchema,
  'corpus-record': docs.CorpusLineSchema,
  'query-record': docs.QueryRecordSchema,
  'beir-query': docs.BeirQueryLineSchema,
  config: docs.ConfigFileSchema,
  freeze: docs.FreezeSchema,
  'label-judgment': docs.LabelJudgmentSchema,
  // what a command prints with --json (or --format json), and the files it writes
  report: docs.ReportSchema,
  'report-packed': docs.PackedReportSchema,
  history: docs.HistoryViewSchema,
  'run-diff': docs.RunDiffSchema,
  baseline: docs.BaselineInfoSchema,
  'compare-session': docs.CompareSessionSchema,
  'compare-session-list': docs.CompareSessionListSchema,
  closeout: docs.CloseoutDocSchema,
  score: docs.ScoreJsonSchema,
  'retrieve-output': docs.RetrieveOutputSchema,
  'verify-result': docs.VerifyOutputSchema,
  'plan-result': docs.PlanResultSchema,
  'freeze-result': docs.FreezeOutputSchema,
  'import-result': docs.ImportOutputSchema,
  'init-result': docs.InitOutputSchema,
  'probes-result': docs.ProbesOutputSchema,
  'label-queue-result': docs.LabelQueueOutputSchema,
  'label-merge-result': docs.LabelMergeOutputSchema,
  'label-agree-result': docs.LabelAgreeOutputSchema,
  'upload-result': docs.UploadOutputSchema,
  'upload-pending-result': docs.UploadPendingOutputSchema,
};
/**
 * A document that is also embedded in others (history, diff, compare session, closeout, baseline in
 * the dashboard's views) declares no "$id" of its own: a second copy of an id inside one schema is
 * refused by ajv. Its published file gets the id here, so every file names itself alike.
 */
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
function published(name, schema) {
  const id = `https://rgate.dev/schemas/${name}.json`;
  if (schema.$id !== undefined && schema.$id !== id)
    throw new Error(`write-schemas: ${name}: its $id is ${schema.$id}, expected ${id}`);
  if (schema.$id !== undefined) return schema;
  const { $schema, ...rest } = schema;
  return { $schema: $schema ?? DRAFT, $id: id, ...rest };
}
const out = `${root}dist/schemas`;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const [name, schema] of Object.entries(SCHEMAS)) {
  if (schema === undefined) throw new Error(`write-schemas: ${name} is not exported by src/documents`);
  writeFileSync(`${out}/${name}.schema.json`, `${JSON.stringify(published(name, schema), null, 2)}\n`);
}
