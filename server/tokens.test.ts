import { describe, expect, it } from 'vitest';
import { bearerToken, newToken, sameHash, tokenHash } from './tokens.js';

describe('tokens', () => {
  it('are random, prefixed by kind, and stored as a sha256 that only the same token matches', () => {
    const a = newToken('upload');
    const b = newToken('read');
    expect(a.token).toMatch(/^rgate_up_[A-Za-z0-9_-]{43}$/);
    expect(b.token).toMatch(/^rgate_rd_[A-Za-z0-9_-]{43}$/);
    expect(a.id).toMatch(/^[0-9a-f]{12}$/);
    expect(tokenHash(a.token)).toMatch(/^[0-9a-f]{64}$/);
    expect(sameHash(tokenHash(a.token), tokenHash(a.token))).toBe(true);
    expect(sameHash(tokenHash(a.token), tokenHash(b.token))).toBe(false);
    expect(sameHash(tokenHash(a.token), 'short')).toBe(false);
  });

  it('reads only a well-formed Bearer header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
