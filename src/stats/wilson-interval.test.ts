import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson-interval.js';

describe('wilsonInterval', () => {
  // Newcombe RG (1998) "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0.0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('Newcombe 1998 Table I: %i/%i -> [%f, %f]', (k, n, lo, hi) => {
    const ci = wilsonInterval(k, n)!;
    expect(ci[0]).toBeCloseTo(lo, 4);
    expect(ci[1]).toBeCloseTo(hi, 4);
  });

  // Brown, Cai & DasGupta (2001) "Interval Estimation for a Binomial Proportion", Statistical Science
  // 16(2):101-133, eq. (4): the Wilson interval is centred at (X + z^2/2) / (n + z^2), not at X/n.
  it('is centred at (X + z^2/2)/(n + z^2) (Brown, Cai & DasGupta 2001, eq. 4)', () => {
    const z = 1.959963984540054;
    const [lo, hi] = wilsonInterval(3, 10)!;
    expect((lo + hi) / 2).toBeCloseTo((3 + (z * z) / 2) / (10 + z * z), 12);
  });

  it('n = 0 is not measured; bad counts are refused', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(5, 4)).toThrow(RangeError);
  });
});
