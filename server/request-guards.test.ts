import { describe, expect, it } from 'vitest';
import { nulPath } from './request-guards.js';

describe('nulPath', () => {
  it('names the first string holding U+0000 in document order, keys included, as a JSON pointer', () => {
    expect(nulPath({ a: 'ok', b: ['x', 'y\u0000'], c: 'z\u0000' })).toBe('/b/1');
    expect(nulPath({ 'a/b~c': '\u0000' })).toBe('/a~1b~0c');
    expect(nulPath({ ok: 1, ['k\u0000']: 1 })).toBe('/k\u0000');
    expect(nulPath('\u0000')).toBe('/');
    expect(nulPath({ a: 'no', b: [1, null, true, { c: 'fine' }] })).toBeUndefined();
  });

  it('walks a body nested deeper than the call stack would allow', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPath(deep)).toBe(`${'/0'.repeat(100_000)}`);
  });
});
