import { describe, expect, it } from 'vitest';
import { validateContextLoadV0 } from './responses/context-load-v0.js';
import { validateContextPack } from './responses/context-pack.js';
import { validateErrorEnvelope } from './responses/error-envelope.js';
import { validateMemoryCliV1 } from './responses/memory-cli-v1.js';
import { validateResolvedIntent } from './responses/resolved-intent.js';
import { validateRetrievalResultV1 } from './responses/retrieval-result-v1.js';
import { validateRgateResponse } from './responses/rgate.js';

/**
 * The response contracts' JSON Schemas, pinned: what a system under test must answer is a promise
 * to its team, and ajv's messages (the violations a report lists) follow from the schema.
 */
const VALIDATORS = {
  'context-load-v0': validateContextLoadV0,
  'context-pack': validateContextPack,
  'error-envelope': validateErrorEnvelope,
  'memory-cli-v1': validateMemoryCliV1,
  'resolved-intent': validateResolvedIntent,
  'retrieval-result-v1': validateRetrievalResultV1,
  rgate: validateRgateResponse,
};

describe('response contract schemas', () => {
  for (const [name, validate] of Object.entries(VALIDATORS)) {
    it(`${name} is unchanged`, () => {
      expect(JSON.parse(JSON.stringify(validate.schema))).toMatchSnapshot();
    });
  }
});
