import { describe, expect, it } from 'vitest';
import { compareVersions, nextVersion } from './version.js';

describe('versions', () => {
  it('orders digit runs as numbers', () => {
    expect(compareVersions('v2', 'v10')).toBeLessThan(0);
    expect(compareVersions('1.10', '1.9')).toBeGreaterThan(0);
    expect(compareVersions('v1', 'v1')).toBe(0);
    expect(compareVersions('v1', 'v01')).not.toBe(0);
    expect(compareVersions('v1', 'v1.1')).toBeLessThan(0);
  });
  it('suggests the next version', () => {
    expect(nextVersion('v1')).toBe('v2');
    expect(nextVersion('1.4')).toBe('1.5');
    expect(nextVersion('v9-rc')).toBe('v10-rc');
    expect(nextVersion('draft')).toBe('draft.1');
  });
});
