import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter', () => {
  it('lets a burst of perMinute through, then one every 60/perMinute s, per key', () => {
    let now = 0;
    const limit = new RateLimiter(3, () => now);
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([0, 0, 0]);
    expect(limit.take('a')).toBe(20); // a token comes back every 20 s
    expect(limit.take('b')).toBe(0); // another token has its own bucket
    now = 19_000;
    expect(limit.take('a')).toBe(1);
    now = 20_500;
    expect(limit.take('a')).toBe(0);
  });

  it('0 means no limit', () => {
    const limit = new RateLimiter(0, () => 0);
    for (let i = 0; i < 1000; i++) expect(limit.take('a')).toBe(0);
  });
});
