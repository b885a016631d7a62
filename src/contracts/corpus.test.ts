import { describe, expect, it } from 'vitest';
import { formatAjvErrors } from './ajv.js';
import { corpusLineId, validateCorpusLine } from './corpus.js';

describe('corpus record schema', () => {
  it('accepts rgate records and BEIR `_id/title/text` lines as is', () => {
    expect(
      validateCorpusLine({ id: 'a', text: 't', kind: 'tactical', captured_at: '2026-01-01T00:00:00Z' }),
    ).toBe(true);
    expect(validateCorpusLine({ _id: '4983', title: 'T', text: 'x', metadata: {} })).toBe(true);
  });

  it('names the JSON path of a bad field', () => {
    expect(validateCorpusLine({ id: 'a', text: 't', evidence: 2 })).toBe(false);
    expect(formatAjvErrors(validateCorpusLine.errors)).toEqual(['/evidence: must be <= 1']);
    expect(validateCorpusLine({ id: 'a', text: 't', kind: 'memo' })).toBe(false);
    expect(formatAjvErrors(validateCorpusLine.errors)[0]).toBe(
      '/kind: must be one of "canonical", "tactical"',
    );
    expect(validateCorpusLine({ id: 'a', text: 't', colour: 1 })).toBe(false);
    expect(formatAjvErrors(validateCorpusLine.errors)).toEqual(['/colour: is not a known field']);
    expect(validateCorpusLine({ id: 'a' })).toBe(false);
    expect(formatAjvErrors(validateCorpusLine.errors)).toEqual(['/text: is required']);
  });

  it('needs exactly one of id and _id', () => {
    expect(corpusLineId({ text: 'x' })).toEqual({ problem: '/id: is required' });
    expect(corpusLineId({ id: 'a', _id: 'b', text: 'x' })).toEqual({
      problem: '/_id: give either id or _id, not both',
    });
    expect(corpusLineId({ _id: 'b', text: 'x' })).toEqual({ id: 'b' });
  });
});
