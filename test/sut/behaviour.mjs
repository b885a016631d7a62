// Shared behaviour of the test SUTs: the query text picks what the system under test does, so one adapter
// instance can be driven through every misbehaviour. Answers use rgate's own response format.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Record a pid in $SUT_PID_DIR so a test can check afterwards that it is gone. */
export function recordPid(pid) {
  const dir = process.env.SUT_PID_DIR;
  if (dir) writeFileSync(join(dir, `${pid}.pid`), String(pid));
}

/**
 * Record in $SUT_ANSWERED_DIR that the answer to a query is written out, so a test can wait for it
 * without running its own event loop.
 */
export function recordAnswered(queryId) {
  const dir = process.env.SUT_ANSWERED_DIR;
  if (dir) writeFileSync(join(dir, `${encodeURIComponent(queryId)}.answered`), '');
}

/**
 * Record in $SUT_HOLDING_DIR that this SUT holds a query for good (it hangs; its own children, if any,
 * are started), so a test can time it out then, on a clock it moves, not after a guessed delay.
 */
export function recordHolding(queryId) {
  const dir = process.env.SUT_HOLDING_DIR;
  if (dir) writeFileSync(join(dir, `${encodeURIComponent(queryId)}.${process.pid}.holding`), '');
}

/** A normal answer: two ranked items; the query text is echoed verbatim as the top item's source_path. */
export function okAnswer(queryId, query, extra = {}) {
  return {
    selection_mode: 'semantic',
    ranked: [
      { id: `hit-${queryId}`, source_path: query, score: 2, chars: 10 },
      { id: 'other', source_path: 'docs/other.md', score: 1, chars: 6 },
    ],
    ...extra,
  };
}

/**
 * What to do for a query: {kind: 'answer', body} | {kind: 'crash'} | {kind: 'hang'} | {kind: 'garbage'}
 * | {kind: 'huge'} | {kind: 'flood'} | {kind: 'hang-with-child'}.
 */
export function decide(queryId, query, state) {
  switch (query) {
    case 'crash':
      return { kind: 'crash' };
    case 'hang':
      return { kind: 'hang' };
    case 'hang-with-child':
      return { kind: 'hang-with-child' };
    case 'garbage':
      return { kind: 'garbage' };
    case 'huge':
      return { kind: 'huge' };
    case 'flood':
      return { kind: 'flood' };
    case 'break-contract':
      return { kind: 'answer', body: { ranked: 'not a list', selectedId: 3 } };
    case 'envelope':
      return {
        kind: 'answer',
        body: { error: { code: 'index_unavailable', message: 'index not built', action: 'run build-index' } },
      };
    case 'wrong-id':
      // only a worker can get this wrong: it answers with someone else's request id
      return { kind: 'answer', body: okAnswer(queryId, query), wrongId: true };
    case 'counter':
      return { kind: 'answer', body: okAnswer(queryId, `served:${state.served}`) };
    default:
      return { kind: 'answer', body: okAnswer(queryId, query) };
  }
}

/** Spawn a long sleeper in our process group (it must die with us when rgate kills the group). */
export function spawnSleeper() {
  const c = spawn('sleep', ['300'], { stdio: 'ignore' });
  recordPid(c.pid);
  return c;
}

export const HUGE = 'x'.repeat(2 * 1024 * 1024);

/** What a flooding SUT writes: far past the default output cap, as a runaway system would. */
export const FLOOD_BYTES = 50 * 1024 * 1024;
const FLOOD_CHUNK = Buffer.alloc(1024 * 1024, 'x');

/**
 * Write `head`, FLOOD_BYTES of padding and `tail` to `out` as fast as the reader drains it, then call
 * `done`. Stops quietly once the reader is gone (rgate stopped reading, or killed us).
 */
export function flood(out, head, tail, done = () => undefined) {
  let sent = 0;
  out.on('error', () => undefined);
  out.write(head);
  const more = () => {
    while (sent < FLOOD_BYTES) {
      if (out.destroyed) return;
      sent += FLOOD_CHUNK.length;
      if (!out.write(FLOOD_CHUNK)) {
        out.once('drain', more);
        return;
      }
    }
    out.write(tail);
    done();
  };
  more();
}
