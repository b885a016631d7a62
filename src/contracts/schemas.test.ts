import { describe, expect, it } from 'vitest';
import {
  BeirQueryLineSchema,
  CompareSessionListSchema,
  ConfigFileSchema,
  CorpusLineSchema,
  FreezeOutputSchema,
  FreezeSchema,
  GatePolicySchema,
  ImportOutputSchema,
  InitOutputSchema,
  LabelJudgmentSchema,
  LabelMergeOutputSchema,
  LabelQueueOutputSchema,
  ProbesOutputSchema,
  QueryRecordSchema,
  PackedReportSchema,
  ReportSchema,
  RgateConfigFileSchema,
  ScoreJsonSchema,
  UploadOutputSchema,
  UploadPendingOutputSchema,
  VerifyOutputSchema,
} from '../documents/index.js';

/**
 * The published JSON Schemas, pinned: what a file must look like is a promise to users (and ajv's
 * messages follow from it), so a change here must be a deliberate snapshot update.
 */
const SCHEMAS = {
  reportSchema: ReportSchema,
  packedReportSchema: PackedReportSchema,
  corpusRecordSchema: CorpusLineSchema,
  queryRecordSchema: QueryRecordSchema,
  beirQuerySchema: BeirQueryLineSchema,
  configSchema: ConfigFileSchema,
  freezeSchema: FreezeSchema,
  gatePolicySchema: GatePolicySchema,
  rgateConfigSchema: RgateConfigFileSchema,
  labelJudgmentSchema: LabelJudgmentSchema,
  // what commands print with --json (the documents declared for them; see test/json-outputs.test.ts)
  scoreJsonSchema: ScoreJsonSchema,
  verifyOutputSchema: VerifyOutputSchema,
  freezeOutputSchema: FreezeOutputSchema,
  importOutputSchema: ImportOutputSchema,
  initOutputSchema: InitOutputSchema,
  probesOutputSchema: ProbesOutputSchema,
  labelQueueOutputSchema: LabelQueueOutputSchema,
  labelMergeOutputSchema: LabelMergeOutputSchema,
  uploadOutputSchema: UploadOutputSchema,
  uploadPendingOutputSchema: UploadPendingOutputSchema,
  compareSessionListSchema: CompareSessionListSchema,
};

describe('published JSON Schemas', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name} is unchanged`, () => {
      // through JSON: only what a schema file would hold counts, not in-memory extras
      expect(JSON.parse(JSON.stringify(schema))).toMatchSnapshot();
    });
  }
});
