import { describe, expect, it } from 'vitest';
import { canonicalJson, normalizeText, storedJson } from './canonical-json.js';
import { sha256 } from './hash.js';

describe('canonicalJson', () => {
  it('sorts keys recursively and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });
  it('ignores CRLF vs LF and trailing spaces inside strings', () => {
    expect(canonicalJson({ t: 'a  \r\nb\t\r\nc ' })).toBe(canonicalJson({ t: 'a\nb\nc' }));
  });
  it('any change of content changes the id', () => {
    expect(sha256(canonicalJson({ t: 'abc' }))).not.toBe(sha256(canonicalJson({ t: 'abd' })));
    expect(sha256(canonicalJson({ n: 1 }))).not.toBe(sha256(canonicalJson({ n: 1.5 })));
  });
  it('keeps leading and inner spaces', () => {
    expect(normalizeText('  a  b')).toBe('  a  b');
  });
  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/NaN/);
  });
});

describe('storedJson', () => {
  it('orders keys as canonicalJson does but keeps every string as written', () => {
    const v = { b: [{ t: 'a  \r\nb\t\r\nc ' }], a: '  lead and trail  ' };
    expect(storedJson(v)).toBe('{"a":"  lead and trail  ","b":[{"t":"a  \\r\\nb\\t\\r\\nc "}]}');
    expect(JSON.parse(storedJson(v))).toEqual(v);
    // what a stored line hashes to is canonicalJson's, whichever way it was written
    expect(canonicalJson(JSON.parse(storedJson(v)))).toBe(canonicalJson(v));
  });
});
