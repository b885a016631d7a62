import { describe, expect, it } from 'vitest';
import { holmAdjust, holmReject } from './holm.js';

describe('Holm step-down correction (Holm 1979)', () => {
  // The standard worked example (e.g. the "Holm–Bonferroni method" article): four hypotheses with
  // p = 0.01, 0.04, 0.03, 0.005 at alpha = 0.05. Step 1: 0.005 <= 0.05/4 reject; step 2: 0.01 <= 0.05/3
  // reject; step 3: 0.03 > 0.05/2 stop. H1 and H4 are rejected, H2 and H3 are not.
  it('rejects H1 and H4 in the textbook example', () => {
    expect(holmReject([0.01, 0.04, 0.03, 0.005], 0.05)).toEqual([true, false, false, true]);
  });

  it('adjusted p-values: max over earlier steps of min(1, (m - j + 1) p_(j))', () => {
    const adj = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adj[i]).toBeCloseTo(v, 15));
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('is never less strict than the unadjusted p and never more than Bonferroni', () => {
    const ps = [0.001, 0.2, 0.013, 0.04, 0.04];
    const adj = holmAdjust(ps);
    ps.forEach((p, i) => {
      expect(adj[i]!).toBeGreaterThanOrEqual(p);
      expect(adj[i]!).toBeLessThanOrEqual(Math.min(1, p * ps.length) + 1e-15);
    });
  });

  it('refuses a p-value that is not a probability (a NaN spread to every later test)', () => {
    expect(() => holmAdjust([NaN, 0.01])).toThrow(/p-value 0 is NaN/);
    expect(() => holmAdjust([0.01, 1.5])).toThrow(RangeError);
  });
});
