import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './defaults.js';
import { resolveConfig } from './resolve-config.js';

describe('resolveConfig', () => {
  it('merges nested overrides without touching the base', () => {
    const c = resolveConfig({ bm25: { k1: 1.2 }, weighting_mode: 'evidence_outcome_bias' });
    expect(c.bm25).toEqual({ k1: 1.2, b: 0.4 });
    expect(c.weighting_mode).toBe('evidence_outcome_bias');
    expect(DEFAULT_CONFIG.bm25.k1).toBe(0.9);
  });
});
