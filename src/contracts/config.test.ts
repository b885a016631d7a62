import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/resolve-config.js';
import { formatAjvErrors } from './ajv.js';
import { validateConfig } from './config.js';

describe('config schema', () => {
  it('accepts a partial config that resolves onto the defaults', () => {
    const partial = { mode: 'bm25', k: 1000, bm25: { k1: 0.9, b: 0.4 } };
    expect(validateConfig(partial)).toBe(true);
    expect(resolveConfig(partial as never)).toMatchObject({
      mode: 'bm25',
      k: 1000,
      weighting_mode: 'uniform',
    });
    expect(validateConfig({})).toBe(true);
  });

  it('rejects unknown keys, bad enums and out-of-range thresholds with JSON paths', () => {
    expect(validateConfig({ weighting_mode: 'heavy' })).toBe(false);
    expect(formatAjvErrors(validateConfig.errors)[0]).toMatch(/^\/weighting_mode: must be one of/);
    expect(validateConfig({ semantic: { confidence_min: 1.5 } })).toBe(false);
    expect(formatAjvErrors(validateConfig.errors)).toEqual(['/semantic/confidence_min: must be <= 1']);
    expect(validateConfig({ budgets: { max_file: 3 } })).toBe(false);
    expect(formatAjvErrors(validateConfig.errors)).toEqual(['/budgets/max_file: is not a known field']);
    expect(validateConfig({ k: 0 })).toBe(false);
  });
});
