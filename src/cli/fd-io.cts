/**
 * The CLI's io written straight to file descriptors 1 and 2, for the paths whose whole job is one
 * write: `rgate score` and the top-level help. Creating process.stdout costs about 10 ms of CPU when
 * it is a file or /dev/null (node builds a stream for it); a score of 50 queries is a few times that.
 * Only node: modules (bin.cts loads this before anything else).
 */
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { CliIo } from './command.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Write all of `text` to `fd`; false once the reader has gone (EPIPE), as `rgate score ... | head`
 * does: the rest is dropped and the command ends normally. A descriptor another process made
 * non-blocking answers EAGAIN when the pipe is full: wait a millisecond and write on.
 */
export function writeAll(fd: number, text: string | Uint8Array): boolean {
  let buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  while (buf.length > 0) {
    try {
      buf = buf.subarray(writeSync(fd, buf));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return false;
      if (code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return true;
}

/** A text as the CLI prints it: ending with one line feed. */
export function asLine(t: string): string {
  return t.endsWith('\n') ? t : t + '\n';
}

/** Colour on a terminal, unless NO_COLOR is set or the terminal is dumb. */
export function colorWanted(isTty: boolean, env: NodeJS.ProcessEnv): boolean {
  return isTty && !('NO_COLOR' in env) && env.TERM !== 'dumb';
}

/**
 * tty.isatty(fd), without loading node:tty (which loads node:net: ~5 ms of a 50-query score) when
 * the answer is plain: a file or a pipe is not a character device, and /dev/null is not a terminal.
 */
export function isTerminal(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    if (st.rdev === statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return false;
  } catch {
    // a closed descriptor and platforms without /dev/null: node:tty answers
  }
  // loaded only here, on purpose (see above)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:tty') as typeof import('node:tty')).isatty(fd);
}

/** defaultIo's behaviour (io.ts) without the streams. */
export function fdIo(): CliIo {
  const isTty = isTerminal(1);
  let stdoutGone = false;
  return {
    out: (t) => {
      if (!stdoutGone) stdoutGone = !writeAll(1, asLine(t));
    },
    outBytes: (b) => {
      if (!stdoutGone) stdoutGone = !writeAll(1, b);
    },
    err: (t) => {
      writeAll(2, asLine(t));
    },
    color: colorWanted(isTty, process.env),
    isTty,
    cwd: process.cwd(),
    env: process.env,
  };
}
