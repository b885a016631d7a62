/**
 * The exit code of a command, and never a silent 0 for one that did not finish. Node exits when its
 * event loop has nothing left to wait on, even with the command's promise still pending (a fetch
 * whose connection dropped without an answer leaves nothing behind it: its timeout timer is unref'd),
 * and the exit code is then 0 with nothing printed: `rgate upload --pending` was seen to end so with
 * every run unsent (#33). Only node: modules (bin.cts loads this before anything else).
 */
import { writeSync } from 'node:fs';

const UNFINISHED_EXIT = 3;

export function exitWithCommand(done: Promise<number>): void {
  let settled = false;
  void done.then((code) => {
    settled = true;
    process.exitCode = code;
  });
  // 'beforeExit' comes only when the loop has drained (an explicit process.exit skips it): a command
  // still pending then can never finish
  process.on('beforeExit', () => {
    if (settled) return;
    settled = true;
    writeSync(
      2,
      'rgate: error: the command stopped before it finished: nothing was left to wait on (a connection closed without an answer?); what it was doing is not done\n',
    );
    process.exitCode = UNFINISHED_EXIT;
  });
}
