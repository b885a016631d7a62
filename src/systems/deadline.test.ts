import { describe, expect, it } from 'vitest';
import { deadline } from './deadline.js';

function block(ms: number): void {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(nap, 0, 0, ms);
}

describe('deadline (a request timeout)', () => {
  it('expires once the time has passed', async () => {
    let expired = false;
    await new Promise<void>((resolve) =>
      deadline(5, () => {
        expired = true;
        resolve();
      }),
    );
    expect(expired).toBe(true);
  });

  it('never expires once cancelled, even when its timer has already fired late', async () => {
    let expired = false;
    const cancel = deadline(10, () => (expired = true));
    // both timers fall due during the block and run in one pass, the deadline's first: the answer
    // that cancels it arrives after the timer fired but before the verdict
    setTimeout(cancel, 11);
    block(50);
    await new Promise((r) => setTimeout(r, 30));
    expect(expired).toBe(false);
  });
});
