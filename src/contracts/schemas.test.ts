import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';
import { corpusRecordSchema } from './corpus.js';
import { freezeSchema } from './freeze.js';
import { gatePolicySchema } from './gate-policy.js';
import { beirQuerySchema, queryRecordSchema } from './query-set.js';
import { reportSchema } from './report-schema.js';
import { rgateConfigSchema } from './rgate-config.js';

/**
 * The published JSON Schemas, pinned: what a file must look like is a promise to users (and ajv's
 * messages follow from it), so a change here must be a deliberate snapshot update.
 */
const SCHEMAS = {
  reportSchema,
  corpusRecordSchema,
  queryRecordSchema,
  beirQuerySchema,
  configSchema,
  freezeSchema,
  gatePolicySchema,
  rgateConfigSchema,
};

describe('published JSON Schemas', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name} is unchanged`, () => {
      // through JSON: only what a schema file would hold counts, not in-memory extras
      expect(JSON.parse(JSON.stringify(schema))).toMatchSnapshot();
    });
  }
});
