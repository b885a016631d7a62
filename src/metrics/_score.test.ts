import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { score } from './_score.js';

const dir = resolve(import.meta.dirname, '..', '..', 'fixtures', 'trec_eval');

describe('score (library form of rgate score)', () => {
  it("gives trec_eval's published numbers on its own test files", () => {
    const r = score({
      qrels: join(dir, 'qrels.test'),
      run: join(dir, 'results.test'),
      measures: ['map', 'P.5'],
    });
    // out.test (trec_eval 10.0): map 0.1785, P_5 0.2667 over 3 queries
    expect(r.num_q).toBe(3);
    expect(Object.keys(r.all).sort()).toEqual(['P_5', 'map']);
    expect(Math.abs(r.all.map! - 0.1785)).toBeLessThanOrEqual(0.00005);
    expect(Math.abs(r.all.P_5! - 0.2667)).toBeLessThanOrEqual(0.00005);
    expect(r.queries).toBeUndefined();
  });

  it('refuses a judged query the run has no line for unless averageComplete (trec_eval 10 stops too)', () => {
    const o = { qrels: join(dir, 'qrels.test'), run: join(dir, 'results.trunc'), measures: ['map'] };
    expect(() => score(o)).toThrow(`query 302 is judged in ${o.qrels} but has no line in ${o.run}`);
    // out.test.aqc (trec_eval 10.0 -c): map 0.1016 over the 3 qrels queries
    const c = score({ ...o, averageComplete: true });
    expect(c.num_q).toBe(3);
    expect(Math.abs(c.all.map! - 0.1016)).toBeLessThanOrEqual(0.00005);
  });
});
