import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAjvErrors } from './ajv.js';
import { validateFreeze } from './freeze.js';

const bundled = resolve(import.meta.dirname, '../../fixtures/cranfield/freeze.json');

describe('freeze schema', () => {
  it('accepts the bundled freeze.json', () => {
    const f = JSON.parse(readFileSync(bundled, 'utf8'));
    expect(validateFreeze(f), formatAjvErrors(validateFreeze.errors).join('\n')).toBe(true);
  });

  it('rejects a non-frozen status, a bad date and an empty history', () => {
    const f = JSON.parse(readFileSync(bundled, 'utf8'));
    expect(validateFreeze({ ...f, status: 'draft' })).toBe(false);
    expect(validateFreeze({ ...f, frozen_on: '22.11.2026' })).toBe(false);
    expect(formatAjvErrors(validateFreeze.errors)).toEqual(['/frozen_on: must match format "date"']);
    expect(validateFreeze({ ...f, history: [] })).toBe(false);
  });
});
