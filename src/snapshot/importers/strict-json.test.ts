import { describe, expect, it } from 'vitest';
import { findJsonProblem } from './strict-json.js';

describe('findJsonProblem', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const t of ['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}', ' "s" ', '0'])
      expect(findJsonProblem(t), t).toBeUndefined();
  });

  it('points at the first mistake', () => {
    expect(findJsonProblem('schema_version: 1')).toEqual({ offset: 0, reason: 'unexpected character "s"' });
    expect(findJsonProblem('{"a": 1,\n}')).toEqual({
      offset: 9,
      reason: 'expected a double-quoted key, found character "}"',
    });
    expect(findJsonProblem('{"a" 1}')).toEqual({
      offset: 5,
      reason: 'expected ":" after a key, found character "1"',
    });
    expect(findJsonProblem('[1 2]')).toEqual({
      offset: 3,
      reason: 'expected "," or "]", found character "2"',
    });
    expect(findJsonProblem('{"a": "b')).toEqual({ offset: 8, reason: 'unterminated string' });
    expect(findJsonProblem('{} x')).toEqual({
      offset: 3,
      reason: 'unexpected character "x" after the JSON value',
    });
    expect(findJsonProblem('[01]')!.reason).toBe('expected "," or "]", found character "1"');
  });
});
