import { describe, expect, it } from 'vitest';
import { compileSchema, validateOrThrow } from './ajv.js';

describe('validateOrThrow', () => {
  const v = compileSchema<{ qrels: Record<string, number> }>({
    type: 'object',
    required: ['qrels'],
    properties: { qrels: { type: 'object', additionalProperties: { type: 'integer' } } },
  });
  it('names file, line and JSON path', () => {
    expect(() =>
      validateOrThrow(v, { qrels: { 'doc-3': 1.5 } }, { file: 'queries.jsonl', line: 17 }),
    ).toThrow('queries.jsonl:17 /qrels/doc-3: must be integer');
  });
  it('returns the value when valid', () => {
    expect(validateOrThrow(v, { qrels: { a: 1 } }, { file: 'x' })).toEqual({ qrels: { a: 1 } });
  });
});
