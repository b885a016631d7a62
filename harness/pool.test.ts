import { describe, expect, it } from 'vitest';
import { LOOP_TURN_EVERY_MS, runPool } from './pool.js';

/** Synchronous work of at least `ms` (as an in-process engine's request is): the loop cannot turn during it. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('runPool', () => {
  it('lets the event loop turn between synchronous items, so an abort from a callback stops it', async () => {
    const stop = new AbortController();
    const done: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const started = await runPool(
      items,
      1,
      async (i) => {
        // a signal arriving while item 2 runs: its handler can only run when the loop turns
        if (i === 2) setImmediate(() => stop.abort());
        // each item outlasts the turn interval, so a turn is due after every one of them
        busy(2 * LOOP_TURN_EVERY_MS);
        done.push(i);
      },
      stop.signal,
    );
    expect(started).toBe(3);
    expect(done).toEqual([0, 1, 2]);
  });

  it('with several lanes too, and a signal that came before the first item stops it before any', async () => {
    const stop = new AbortController();
    const done: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const work = async (i: number): Promise<void> => {
      if (i === 4) setImmediate(() => stop.abort());
      busy(2 * LOOP_TURN_EVERY_MS);
      done.push(i);
    };
    const started = await runPool(items, 3, work, stop.signal);
    expect(started).toBeLessThan(items.length);
    expect(done).toEqual(items.slice(0, started));
    // a signal already delivered while rgate prepared: the turn before the first item sees it
    const early = new AbortController();
    setImmediate(() => early.abort());
    expect(await runPool(items, 3, work, early.signal)).toBe(0);
  });

  it('runs every item in order when nothing stops it', async () => {
    const done: number[] = [];
    const started = await runPool([0, 1, 2, 3, 4], 2, async (i) => {
      done.push(i);
    });
    expect(started).toBe(5);
    expect(done).toEqual([0, 1, 2, 3, 4]);
  });
});
