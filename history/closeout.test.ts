import { describe, expect, it } from 'vitest';
import { artifacts } from '../test/history-helpers.js';
import { baselineWarnings, overridePairs } from './closeout.js';

describe('baselineWarnings', () => {
  const a = artifacts('v1');
  it('the run is its own baseline', () => {
    expect(baselineWarnings('r1', a, { run_id: 'r1', artifacts: a })[0]).toMatch(
      /^run r1 is its own baseline/,
    );
  });
  it('another run on the same snapshot and effective config: nothing under review', () => {
    expect(baselineWarnings('r2', a, { run_id: 'r1', artifacts: a })[0]).toMatch(
      /^run r2 and its baseline r1 share the snapshot and the effective config/,
    );
  });
  it('a config change (a --set variant) is a change under review: no warning', () => {
    const variant = artifacts('v1', { config_sha256: 'sha256:other' });
    expect(baselineWarnings('r2', variant, { run_id: 'r1', artifacts: a })).toEqual([]);
  });
});

describe('overridePairs', () => {
  it('flattens nested keys with dots, strings bare, other values as JSON, sorted by key', () => {
    expect(
      overridePairs({ weighting_mode: 'uniform', bm25: { k1: 0.9, b: 0.4 }, k: 12, tags: ['a'] }),
    ).toEqual(['bm25.b=0.4', 'bm25.k1=0.9', 'k=12', 'tags=["a"]', 'weighting_mode=uniform']);
    expect(overridePairs({})).toEqual([]);
  });
});
