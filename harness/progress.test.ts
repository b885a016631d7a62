import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

describe('progress', () => {
  it('prints plain periodic lines when not a TTY', () => {
    let t = 0;
    const out: string[] = [];
    const p = createProgress({ write: (s) => out.push(s), tty: false, now: () => t, intervalMs: 1000 });
    p.start('replay 1/2', 4);
    for (let i = 0; i < 4; i++) {
      t += 600;
      p.tick(i !== 2);
    }
    p.finish();
    expect(out[0]).toBe('replay 1/2: 4 requests\n');
    expect(out.some((l) => l.includes('2/4'))).toBe(true);
    expect(out.at(-1)).toMatch(/^replay 1\/2: 4\/4 \(100%\) .* errors 1\n$/);
    expect(out.every((l) => !l.includes('\r'))).toBe(true);
  });

  it('rewrites one line on a TTY', () => {
    let t = 0;
    const out: string[] = [];
    const p = createProgress({ write: (s) => out.push(s), tty: true, now: () => (t += 200) });
    p.start('r', 2);
    p.tick(true);
    p.tick(true);
    p.finish();
    expect(out.every((l) => l.startsWith('\r'))).toBe(true);
  });
});
