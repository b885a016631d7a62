import { describe, expect, it } from 'vitest';
import { NO_GAINS, parseGainParams, setupGains } from './_gains.js';
import type { JudgedRanking } from './_types.js';

const judged = (relLevels: number[]): JudgedRanking => ({
  qid: 'q',
  rels: new Int32Array(0),
  numRet: 0,
  relLevels,
  numRelLevels: relLevels.length,
  numRel: 0,
  numRelRet: 0,
  inRun: true,
  standIn: false,
});

describe('setupGains: the last table kept', () => {
  it('is made again for another query or other parameters, and is the same table for the same ones', () => {
    const plain = NO_GAINS;
    const listed = parseGainParams('ndcg', '1=3,2=9');
    const a = judged([5, 2, 1]);
    const b = judged([1, 4]);
    const ta = setupGains(a, plain);
    expect(ta.map((g) => [g.level, g.gain, g.numAtLevel])).toEqual([
      [0, 0, 5],
      [1, 1, 2],
      [2, 2, 1],
    ]);
    expect(setupGains(a, plain)).toBe(ta);
    expect(setupGains(a, listed).map((g) => [g.level, g.gain, g.numAtLevel])).toEqual([
      [0, 0, 5],
      [1, 3, 2],
      [2, 9, 1],
    ]);
    expect(setupGains(b, plain).map((g) => [g.level, g.gain, g.numAtLevel])).toEqual([
      [0, 0, 1],
      [1, 1, 4],
    ]);
    expect(setupGains(a, plain).map((g) => g.numAtLevel)).toEqual([5, 2, 1]);
  });
});
