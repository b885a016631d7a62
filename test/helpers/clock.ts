/**
 * Waiting without a wall-clock margin. A test on a loaded machine may not bet on how long anything
 * takes: it waits for the event it needs (a file, a pid gone, a line logged), bounded only by its own
 * test timeout, and a request timeout it needs to see fire runs on a clock the test moves.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { onTestFailed, vi } from 'vitest';

/**
 * Wait until `f` holds, polling on the real clock (node:timers/promises, which a faked setTimeout
 * does not freeze). No bound of its own: the test's timeout is the bound, and should the test fail
 * while this still waits, `what()` says what was missing.
 */
export async function until(f: () => boolean | Promise<boolean>, what?: () => string): Promise<void> {
  let waiting = true;
  if (what)
    onTestFailed(() => {
      if (waiting) console.error(`still waiting for: ${what()}`);
    });
  while (!(await f())) await sleep(20);
  waiting = false;
}

export interface FakeClock {
  /** Move the clock `ms` on: every deadline armed so far that falls due by then expires. */
  advance(ms: number): Promise<void>;
}

/**
 * Run `body` with setTimeout and setImmediate on a clock the test moves: no request deadline falls
 * due until `advance` passes it. So a system that holds its request (never answers) is timed out
 * exactly when the test says, once it knows the system holds it, while systems that answer at once
 * may take as long as a loaded machine needs. Processes, pipes and sockets stay real, and so do
 * performance.now() and Date (latencies are real).
 */
export async function onFakeClock<T>(body: (clock: FakeClock) => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
  try {
    return await body({
      async advance(ms) {
        await vi.advanceTimersByTimeAsync(ms);
        // a deadline gives its verdict one turn after its timer (setImmediate), which a fake clock
        // in the middle of moving schedules 1 ms on
        await vi.advanceTimersByTimeAsync(1);
      },
    });
  } finally {
    vi.useRealTimers();
  }
}
