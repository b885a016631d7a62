import type { CliIo } from '../../src/cli/command.js';

/** An io for `runCli` that keeps what a command prints, uncoloured, as if not on a terminal. */
export function captureIo(
  cwd: string,
  env: CliIo['env'] = {},
): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    color: false,
    isTty: false,
    cwd,
    env,
  };
}
