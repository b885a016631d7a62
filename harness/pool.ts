import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The longest stretch of work the pool runs without letting the event loop turn. An in-process
 * system (the builtin engine) answers synchronously, so a pool of its requests would otherwise
 * never leave the microtask queue: no signal handler, timer or stderr write would run until the
 * whole replay was over (Ctrl-C did nothing). A turn costs ~15 us; one per 15 ms is ~0.1% of a run.
 */
export const LOOP_TURN_EVERY_MS = 15;

/**
 * Run `work` over items with at most `concurrency` in flight, in the given order. Stops scheduling new
 * items once `signal` aborts; items already started finish (so their observations are kept). Between
 * items the event loop gets a turn at least every {@link LOOP_TURN_EVERY_MS} ms, however synchronous
 * the work, so an abort from a signal handler or a timer is seen.
 * Returns how many items were started.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  let next = 0;
  const lanes = Math.max(1, Math.min(concurrency, items.length));
  const turns = loopTurns();
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const turn = turns();
      if (turn) {
        await turn;
        if (next >= items.length || signal?.aborted) break;
      }
      const i = next++;
      await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return next;
}

/**
 * A turn of the event loop when one is due (the last was {@link LOOP_TURN_EVERY_MS} ago or more),
 * else undefined. Lanes asking while a turn is under way share it, so they resume in their order.
 */
function loopTurns(): () => Promise<void> | undefined {
  // a turn before the first item too: a signal that came while rgate prepared is seen before any request
  let last = -Infinity;
  let pending: Promise<void> | undefined;
  return () => {
    if (pending) return pending;
    if (performance.now() - last < LOOP_TURN_EVERY_MS) return undefined;
    // node:timers/promises, not the global: a test that fakes the global timers must not stop the pool
    pending = nextTurn().then(() => {
      pending = undefined;
      last = performance.now();
    });
    return pending;
  };
}
