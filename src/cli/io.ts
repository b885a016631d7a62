import type { CliIo } from './command.js';

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
      if (!stdoutGone) process.stdout.write(t.endsWith('\n') ? t : t + '\n');
    },
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    color: isTty && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb',
    isTty,
    cwd: process.cwd(),
    env: process.env,
  };
}
