/**
 * Progress for long runs, on stderr: a single rewritten line on a TTY (done/total, rate, ETA, errors);
 * plain periodic lines elsewhere (CI logs), at most one per interval. The clock is injected and only
 * ever reaches this display, never a result.
 */
export interface Progress {
  start(label: string, total: number): void;
  tick(ok: boolean): void;
  finish(): void;
}

export interface ProgressOptions {
  write: (text: string) => void;
  tty: boolean;
  now: () => number;
  /** minimum ms between plain lines (non-TTY) */
  intervalMs?: number;
}

export const silentProgress: Progress = { start() {}, tick() {}, finish() {} };

export function createProgress(opts: ProgressOptions): Progress {
  const interval = opts.intervalMs ?? 5000;
  let label = '';
  let total = 0;
  let done = 0;
  let errors = 0;
  let t0 = 0;
  let lastDraw = 0;

  const line = (): string => {
    const elapsed = Math.max(1, opts.now() - t0) / 1000;
    const rate = done / elapsed;
    const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
    const pct = total ? Math.floor((done / total) * 100) : 100;
    return `${label}: ${done}/${total} (${pct}%) ${rate.toFixed(1)}/s eta ${eta}s errors ${errors}`;
  };

  return {
    start(l, t) {
      label = l;
      total = t;
      done = 0;
      errors = 0;
      t0 = opts.now();
      lastDraw = t0;
      if (!opts.tty) opts.write(`${label}: ${total} requests\n`);
    },
    tick(ok) {
      done++;
      if (!ok) errors++;
      const now = opts.now();
      if (opts.tty) {
        if (now - lastDraw >= 100 || done === total) {
          lastDraw = now;
          opts.write(`\r\x1b[2K${line()}`);
        }
      } else if (now - lastDraw >= interval && done < total) {
        lastDraw = now;
        opts.write(line() + '\n');
      }
    },
    finish() {
      opts.write(opts.tty ? `\r\x1b[2K${line()}\n` : line() + '\n');
    },
  };
}
