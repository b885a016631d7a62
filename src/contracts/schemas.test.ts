import { describe, expect, it } from 'vitest';
import {
  BeirQueryLineSchema,
  ConfigFileSchema,
  CorpusLineSchema,
  FreezeSchema,
  GatePolicySchema,
  LabelJudgmentSchema,
  QueryRecordSchema,
  ReportSchema,
  RgateConfigFileSchema,
} from '../documents/index.js';

/**
 * The published JSON Schemas, pinned: what a file must look like is a promise to users (and ajv's
 * messages follow from it), so a change here must be a deliberate snapshot update.
 */
const SCHEMAS = {
  reportSchema: ReportSchema,
  corpusRecordSchema: CorpusLineSchema,
  queryRecordSchema: QueryRecordSchema,
  beirQuerySchema: BeirQueryLineSchema,
  configSchema: ConfigFileSchema,
  freezeSchema: FreezeSchema,
  gatePolicySchema: GatePolicySchema,
  rgateConfigSchema: RgateConfigFileSchema,
  labelJudgmentSchema: LabelJudgmentSchema,
};

describe('published JSON Schemas', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name} is unchanged`, () => {
      // through JSON: only what a schema file would hold counts, not in-memory extras
      expect(JSON.parse(JSON.stringify(schema))).toMatchSnapshot();
    });
  }
});
