import { describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { bootstrapMeanCi, bootstrapTime, pairedBootstrapMeanCi, timeBootstraps } from './bootstrap.js';

describe('seeded percentile bootstrap (Efron & Tibshirani 1993, ch. 13)', () => {
  const data = Array.from({ length: 400 }, (_, i) => ((i * 37) % 101) / 100);
  const mean = data.reduce((a, b) => a + b, 0) / data.length;
  const sd = Math.sqrt(data.reduce((a, b) => a + (b - mean) ** 2, 0) / (data.length - 1));

  it('for a large sample it is close to the normal-theory interval mean ± 1.96 s/√n (E&T §13.3)', () => {
    const [lo, hi] = bootstrapMeanCi(data, { seed: 42, resamples: 4000 })!;
    const half = (1.96 * sd) / Math.sqrt(data.length);
    expect(lo).toBeCloseTo(mean - half, 2);
    expect(hi).toBeCloseTo(mean + half, 2);
  });

  it('is reproducible from its seed and changes with it', () => {
    const a = bootstrapMeanCi(data, { seed: 1 });
    expect(bootstrapMeanCi(data, { seed: 1 })).toEqual(a);
    expect(bootstrapMeanCi(data, { seed: 2 })).not.toEqual(a);
  });

  it('constant data give a zero-width interval; no data give null', () => {
    expect(bootstrapMeanCi([0.3, 0.3, 0.3], { seed: 5 })).toEqual([0.3, 0.3]);
    expect(bootstrapMeanCi([], { seed: 5 })).toBeNull();
  });

  it('paired form bootstraps the per-unit differences y - x', () => {
    const x = data.slice(0, 50);
    const y = x.map((v) => v + 0.1);
    const [lo, hi] = pairedBootstrapMeanCi(x, y, { seed: 9 })!;
    expect(lo).toBeCloseTo(0.1, 12);
    expect(hi).toBeCloseTo(0.1, 12);
    expect(() => pairedBootstrapMeanCi([1], [], { seed: 1 })).toThrow(RangeError);
  });
});

describe('bootstrap intervals pinned (a faster resampler must give these very doubles)', () => {
  /** Intervals printed by the Array-and-closure resampler (commit f7cc7c5) for the same inputs. */
  const PINNED: [number, number, [number, number]][] = [
    [1, 3, [0, 0]],
    [2, 5, [0.16649658977985382, 3]],
    [17, 20261122, [0.3930309466134264, 1.1156134883143858]],
    [250, 99, [0.7530318791118451, 0.9709645825168816]],
    [1000, 4242, [0.7505182603613124, 0.854157799777732]],
  ];
  for (const [n, seed, interval] of PINNED) {
    it(`n=${n}, seed ${seed}`, () => {
      const rng = createPrng(n * 31 + 1);
      const values = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? rng.int(4) : rng.next()));
      expect(bootstrapMeanCi(values, { seed })).toEqual(interval);
    });
  }

  it('draws what createPrng(seed).int(n) draws: same intervals as the closure loop, 300 random cases', () => {
    // the resampler as it was written before the inline generator, as the reference
    const reference = (values: number[], seed: number, resamples: number): [number, number] => {
      const prng = createPrng(seed);
      const means = new Float64Array(resamples);
      for (let r = 0; r < resamples; r++) {
        let s = 0;
        for (let i = 0; i < values.length; i++) s += values[prng.int(values.length)]!;
        means[r] = s / values.length;
      }
      means.sort();
      const q = (p: number): number => {
        const h = (resamples - 1) * p;
        const lo = Math.floor(h);
        return means[lo]! + (h - lo) * (means[Math.ceil(h)]! - means[lo]!);
      };
      const alpha = 1 - 0.95;
      return [q(alpha / 2), q(1 - alpha / 2)];
    };
    const rng = createPrng(77);
    for (let k = 0; k < 300; k++) {
      const n = 1 + rng.int(k < 290 ? 60 : 5000);
      const values = Array.from({ length: n }, () => (rng.int(2) ? rng.next() * 10 - 3 : rng.int(3)));
      const seed = rng.int(2 ** 32);
      const resamples = 10 + rng.int(300);
      expect(bootstrapMeanCi(values, { seed, resamples })).toEqual(reference(values, seed, resamples));
    }
  });

  it('500 resamples at level 0.9', () => {
    const ci = bootstrapMeanCi([0.25, 1, 0, 0.5, 0.125], { seed: 11, resamples: 500, level: 0.9 });
    expect(ci).toEqual([0.125, 0.625]);
  });
});

describe('timeBootstraps (opt-in diagnostics)', () => {
  it('gives the same intervals timed as untimed, and counts what it timed', () => {
    const prng = createPrng(9);
    const samples = Array.from({ length: 20 }, (_, i) =>
      Array.from({ length: 1 + i * 7 }, () => prng.next()),
    );
    const untimed = samples.map((v, i) => bootstrapMeanCi(v, { seed: i }));
    let ticks = 0;
    timeBootstraps(() => ticks++);
    const timed = samples.map((v, i) => bootstrapMeanCi(v, { seed: i }));
    const spent = bootstrapTime();
    timeBootstraps(undefined);
    expect(timed).toEqual(untimed);
    // the clock is read twice per interval, each read one tick later than the one before
    expect(spent).toEqual({ ms: 20, intervals: 20 });
    bootstrapMeanCi([1, 2], { seed: 1 });
    expect(ticks).toBe(40);
  });
});
