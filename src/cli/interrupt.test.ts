import { describe, expect, it } from 'vitest';
import { captureIo } from '../../test/helpers/cli-io.js';
import { INTERRUPT_GRACE_MS, interruptGraceMs, watchInterrupts } from './interrupt.js';

/** The listener watchInterrupts added for `signal` (called directly: emitting would reach the test runner's own). */
function added(signal: 'SIGINT' | 'SIGTERM', before: readonly unknown[]): () => void {
  const mine = process.listeners(signal).filter((l) => !before.includes(l));
  expect(mine).toHaveLength(1);
  return mine[0] as () => void;
}

describe('watchInterrupts', () => {
  it('the first signal stops at once, abandons after the grace period, and sets the exit code', async () => {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const io = captureIo('.');
    const interrupt = watchInterrupts(io, 0);
    expect(interrupt.exitCode).toBeUndefined();
    expect(await interrupt.came()).toBe(false);
    added('SIGTERM', before.SIGTERM)();
    expect(interrupt.stop.aborted).toBe(true);
    expect(interrupt.by).toBe('SIGTERM');
    expect(interrupt.exitCode).toBe(143);
    expect(await interrupt.came()).toBe(true);
    expect(io.stderr.join('\n')).toContain('rgate: SIGTERM: stopping: no new requests');
    await new Promise<void>((resolve) =>
      interrupt.abandon.aborted ? resolve() : interrupt.abandon.addEventListener('abort', () => resolve()),
    );
    await interrupt.dispose();
    await interrupt.dispose();
    expect(process.listeners('SIGINT')).toEqual(before.SIGINT);
    expect(process.listeners('SIGTERM')).toEqual(before.SIGTERM);
  });

  it('SIGINT is 130', async () => {
    const before = process.listeners('SIGINT');
    const interrupt = watchInterrupts(captureIo('.'), 60_000);
    added('SIGINT', before)();
    expect(interrupt.exitCode).toBe(130);
    expect(interrupt.abandon.aborted).toBe(false);
    // disposed before the grace period ends: its timer goes with it
    await interrupt.dispose();
  });
});

describe('interruptGraceMs', () => {
  it('reads RGATE_INTERRUPT_GRACE_MS, defaults when unset, refuses what is not whole milliseconds', () => {
    expect(interruptGraceMs({})).toBe(INTERRUPT_GRACE_MS);
    expect(interruptGraceMs({ RGATE_INTERRUPT_GRACE_MS: '250' })).toBe(250);
    expect(interruptGraceMs({ RGATE_INTERRUPT_GRACE_MS: '0' })).toBe(0);
    expect(() => interruptGraceMs({ RGATE_INTERRUPT_GRACE_MS: '2s' })).toThrow(
      'RGATE_INTERRUPT_GRACE_MS=2s: must be a whole number of milliseconds >= 0',
    );
    expect(() => interruptGraceMs({ RGATE_INTERRUPT_GRACE_MS: '-1' })).toThrow(/>= 0/);
  });
});
