/**
 * The CLI's io written straight to file descriptors 1 and 2, for the paths whose whole job is one
 * write: `rgate score` and the top-level help. Creating process.stdout costs about 10 ms of CPU when
 * it is a file or /dev/null (node builds a stream for it); a score of 50 queries is a few times that.
 * Only node: modules (bin.cts loads this before anything else).
 */
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { CliIo } from './command.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Write all of `text` to `fd`; false once the reader has gone (EPIPE), as `rgate score ... | head`
 * does: the rest is dropped and the command ends normally. A descriptor another process made
 * non-blocking answers EAGAIN when the pipe is full: wait a millisecond and write on.
 */
export function writeAll(fd: number, text: string): boolean {
  let buf = Buffer.from(text, 'utf8');
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

/** defaultIo's behaviour (io.ts) without the streams: each text ends with one line feed. */
export function fdIo(): CliIo {
  const isTty = isatty(1);
  let stdoutGone = false;
  const line = (t: string): string => (t.endsWith('\n') ? t : t + '\n');
  return {
    out: (t) => {
      if (!stdoutGone) stdoutGone = !writeAll(1, line(t));
    },
    err: (t) => {
      writeAll(2, line(t));
    },
    color: isTty && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb',
    isTty,
    cwd: process.cwd(),
    env: process.env,
  };
}
