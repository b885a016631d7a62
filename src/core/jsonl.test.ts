import { describe, expect, it } from 'vitest';
import { parseJsonl } from './jsonl.js';

describe('parseJsonl', () => {
  it('numbers lines from 1 and skips blanks and CRLF', () => {
    const lines = parseJsonl('{"a":1}\r\n\r\n{"a":2}\n', 'x.jsonl');
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { a: 2 } },
    ]);
  });
  it('names the file and line of a broken line', () => {
    expect(() => parseJsonl('{"a":1}\n{oops}\n', 'q.jsonl')).toThrow(/^q\.jsonl:2: not valid JSON/);
  });
});
