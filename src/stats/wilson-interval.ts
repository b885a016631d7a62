/**
 * Wilson score interval for a binomial proportion (Wilson 1927; "method 3" of Newcombe 1998), the
 * interval Brown, Cai & DasGupta (2001) recommend for small n. Example: wilsonInterval(81, 263) ≈
 * [0.2553, 0.3662].
 */
export const Z95 = 1.959963984540054;

export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | null {
  if (n === 0) return null;
  if (successes < 0 || successes > n) throw new RangeError(`wilsonInterval: ${successes} successes of ${n}`);
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
