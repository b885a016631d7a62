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

describe('compileSchema under a taken $id', () => {
  it('takes an equal copy as the same schema and compiles a different one on its own', () => {
    const id = 'https://rgate.dev/test/taken-id.json';
    const a = { $id: id, type: 'object', properties: { x: {} }, required: ['x'] };
    const first = compileSchema<{ x: unknown }>(a);
    expect(first({ x: 1 })).toBe(true);
    // an equal object (a second copy of the module that declares it)
    const copy = compileSchema<{ x: unknown }>({
      $id: id,
      type: 'object',
      properties: { x: {} },
      required: ['x'],
    });
    expect(copy({})).toBe(false);
    // a different schema under the same id: ajv's shared instance would throw "already exists"
    const other = compileSchema<{ y: unknown }>({
      $id: id,
      type: 'object',
      properties: { y: {} },
      required: ['y'],
    });
    expect(other({ y: 1 })).toBe(true);
    expect(other({ x: 1 })).toBe(false);
  });
});
