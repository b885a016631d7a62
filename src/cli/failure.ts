import { EXIT, isRgateError } from '../core/errors.js';
import type { CliIo } from './command.js';

/**
 * What a command that threw says and exits with: a user's mistake (RgateError) is its message and
 * hint, exit 2 (3 for a faulty system under test); anything else is an internal error, exit 3, with
 * the stack only under --debug.
 */
export function reportFailure(e: unknown, io: CliIo, debug: boolean): number {
  if (isRgateError(e)) {
    io.err(`rgate: error: ${e.message}`);
    if (e.hint) io.err(`  hint: ${e.hint}`);
    if (debug && e.stack) io.err(e.stack);
    return e.exitCode;
  }
  io.err(`rgate: internal error: ${(e as Error)?.message ?? String(e)}`);
  if (debug && e instanceof Error && e.stack) io.err(e.stack);
  else io.err('  hint: re-run with --debug for the stack trace, and report it');
  return EXIT.internal;
}
