import { describe, expect, it } from 'vitest';
import { rankingScores } from './_ranking-scores.js';

describe('rankingScores', () => {
  const ranked = [{ score: 0 }, { score: 0 }, { score: 0.4 }];
  it('order is the rank for memory-cli-v1 (a fallback answers every candidate at confidence 0)', () => {
    expect(rankingScores({ ranked, contract: { name: 'memory-cli-v1' } })).toEqual([3, 2, 1]);
  });
  it('other contracts keep the scores they report', () => {
    expect(rankingScores({ ranked, contract: { name: 'rgate' } })).toEqual([0, 0, 0.4]);
  });
});
