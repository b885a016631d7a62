import { describe, expect, it } from 'vitest';
import { createPrng, deriveSeed, shuffled } from './prng.js';

describe('prng', () => {
  it('is reproducible from its seed', () => {
    const a = createPrng(42);
    const b = createPrng(42);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(createPrng(43).next()).not.toBe(xs[0]);
  });
  it('stays in range and is roughly uniform', () => {
    const p = createPrng(7);
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) counts[p.int(10)]++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });
  it('shuffles a copy into a permutation', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8];
    const s = shuffled(xs, createPrng(1));
    expect([...s].sort()).toEqual(xs);
    expect(xs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(shuffled(xs, createPrng(1))).toEqual(s);
  });
  it('derives distinct sub-seeds per label', () => {
    expect(deriveSeed(1, 'replay-1')).not.toBe(deriveSeed(1, 'replay-2'));
  });
});
