import { describe, expect, it } from 'vitest';
import { bundledGateIds } from './policy.js';
import { isGateC } from './gate-c.js';

describe('isGateC', () => {
  it('is a gate-c segment of the id, and of the bundled gates only context-load-gate-c-v0 has one', () => {
    expect(bundledGateIds().filter(isGateC)).toEqual(['context-load-gate-c-v0']);
    expect(isGateC('gate-c')).toBe(true);
    expect(isGateC('memory.gate-c.v2')).toBe(true);
    expect(isGateC('gate-cx-v0')).toBe(false);
    expect(isGateC('nightly-gate-c1')).toBe(false);
  });
});
