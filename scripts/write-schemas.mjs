/**
 * Writes the published JSON Schemas (the same objects src/contracts/schemas.test.ts pins) to
 * dist/schemas/<name>.schema.json after tsc, so a user's editor can check rgate.config.json, a gate
 * policy or a fixture file against node_modules/rgate/dist/schemas/ (rgate init points
 * rgate.config.json's "$schema" there).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = await import(`${root}dist/src/documents/index.js`);
const SCHEMAS = {
  'rgate.config': docs.RgateConfigFileSchema,
  'gate-policy': docs.GatePolicySchema,
  'corpus-record': docs.CorpusLineSchema,
  'query-record': docs.QueryRecordSchema,
  'beir-query': docs.BeirQueryLineSchema,
  config: docs.ConfigFileSchema,
  freeze: docs.FreezeSchema,
  report: docs.ReportSchema,
  'label-judgment': docs.LabelJudgmentSchema,
};
const out = `${root}dist/schemas`;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const [name, schema] of Object.entries(SCHEMAS)) {
  if (schema === undefined) throw new Error(`write-schemas: ${name} is not exported by src/documents`);
  writeFileSync(`${out}/${name}.schema.json`, `${JSON.stringify(schema, null, 2)}\n`);
}
