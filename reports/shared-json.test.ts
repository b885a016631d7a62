import { describe, expect, it } from 'vitest';
import { stringifySharingArrays } from './shared-json.js';

describe('stringifySharingArrays', () => {
  it("is JSON.stringify's text, byte for byte, for shared and nested arrays and what JSON leaves out", () => {
    const shared = [1, 0.1 + 0.2, null, 'a"b', '\u2028', -0];
    const value = {
      a: shared,
      b: [shared, { c: shared, u: undefined, f: () => 1 }, undefined, [], [[shared]]],
      d: new Date(Date.UTC(2026, 10, 28)),
      e: { toJSON: () => 'custom' },
      n: Number.NaN,
      s: Symbol('s'),
      z: Object.assign(Object.create(null) as object, { k: [shared] }),
      '\u0000"key': 'x',
    };
    expect(stringifySharingArrays(value)).toBe(JSON.stringify(value));
    for (const v of [shared, 1, 'x', null, undefined, [undefined], [{ toJSON: () => undefined }]])
      expect(stringifySharingArrays(v)).toBe(JSON.stringify(v) ?? 'null');
  });

  it('reads a shared array once however often it is referenced', () => {
    let reads = 0;
    const shared = [1, 2, 3];
    const counted = new Proxy(shared, {
      get(target, key, receiver) {
        if (key === '0') reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const text = stringifySharingArrays({ a: counted, b: counted, c: [counted, counted] });
    expect(text).toBe(JSON.stringify({ a: shared, b: shared, c: [shared, shared] }));
    // once to see it holds no object, once to serialise it; JSON.stringify reads it four times
    expect(reads).toBe(2);
  });
});
