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
    ...(isTty && process.stdout.columns ? { columns: process.stdout.columns } : {}),
    cwd: process.cwd(),
    env: process.env,
  };
}

/**
 * The width a terminal rendering is laid out for: the terminal's columns, 80 when stdout is not a
 * terminal; at least 40 (a table below that is mostly broken lines) and at most 120 (as help: long
 * lines read badly).
 */
export function terminalWidth(io: CliIo): number {
  return io.columns ? Math.min(120, Math.max(40, io.columns)) : 80;
}
