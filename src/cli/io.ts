import type { CliIo } from './command.js';
import { asLine, colorWanted } from './fd-io.cjs';

/** The process's own streams, as every command talks to the user through them. */
export function defaultIo(): CliIo {
  const isTty = Boolean(process.stdout.isTTY);
  // `rgate ... | head`: once the reader has gone, stop writing and finish normally, so the exit
  // code still tells the verdict (an unhandled EPIPE would be a stack trace and exit 1)
  let stdoutGone = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stdoutGone = true;
  });
  return {
    out: (t) => {
      if (!stdoutGone) process.stdout.write(asLine(t));
    },
    err: (t) => process.stderr.write(asLine(t)),
    color: colorWanted(isTty, process.env),
    isTty,
    cwd: process.cwd(),
    env: process.env,
  };
}
