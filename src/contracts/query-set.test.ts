import { describe, expect, it } from 'vitest';
import { RgateError } from '../core/errors.js';
import { validateOrThrow } from './ajv.js';
import { validateBeirQueryLine, validateQueryLine } from './query-set.js';

describe('query record schema', () => {
  it('accepts a full query record', () => {
    const q = {
      query_id: 'q1',
      text: 'where is the freeze rule',
      profile: 'small',
      tags: ['gate-c'],
      qrels: { 'doc-1': 2, 'doc-2': 0 },
      useful_ids: ['doc-1'],
      must_exclude_tags_all: ['secret'],
      expect: { selection_mode: 'fallback_exact_key', no_match: false },
    };
    expect(validateQueryLine(q)).toBe(true);
  });

  it('a fractional grade is `queries.jsonl:17 /qrels/doc-3: must be integer`', () => {
    const bad = { query_id: 'q', text: 't', qrels: { 'doc-3': 1.5 } };
    expect(() => validateOrThrow(validateQueryLine, bad, { file: 'queries.jsonl', line: 17 })).toThrow(
      new RgateError('input_invalid', 'queries.jsonl:17 /qrels/doc-3: must be integer'),
    );
  });

  it('rejects an unknown selection mode and a missing query_id', () => {
    expect(validateQueryLine({ query_id: 'q', text: 't', expect: { selection_mode: 'magic' } })).toBe(false);
    expect(validateQueryLine({ text: 't' })).toBe(false);
  });

  it('BEIR query lines keep `_id`, `text`, `metadata`', () => {
    expect(validateBeirQueryLine({ _id: '0', text: 'x', metadata: {} })).toBe(true);
    expect(validateBeirQueryLine({ id: '0', text: 'x' })).toBe(false);
  });
});
