import { describe, expect, it } from 'vitest';
import { childEnv, TailBuffer } from './process-group.js';

describe('TailBuffer (stderr kept with a failure)', () => {
  it('keeps everything under the limit', () => {
    const t = new TailBuffer(10);
    t.push(Buffer.from('abc'));
    t.push(Buffer.from('def'));
    expect(t.text()).toBe('abcdef');
  });

  it('keeps only the last bytes, marked as cut, when a SUT floods stderr', () => {
    const t = new TailBuffer(8);
    for (let i = 0; i < 100; i++) t.push(Buffer.from(`line ${i}\n`));
    expect(t.text()).toBe('…line 99\n');
  });
});

describe('childEnv', () => {
  it('is PATH plus what the spec states, nothing else from the environment of rgate', () => {
    const env = childEnv({ MODEL_DIR: '/m' });
    expect(Object.keys(env).sort()).toEqual(['MODEL_DIR', 'PATH']);
    expect(env['PATH']).toBe(process.env['PATH']);
  });
});
