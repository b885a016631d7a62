import { RgateError } from '../core/errors.js';
import { killEveryGroup } from '../systems/process-group.js';
import type { CliIo } from './command.js';

/**
 * How long requests in flight may still take after the first SIGINT or SIGTERM before they are
 * abandoned (process groups killed, connections closed, not stored: a resume makes them again).
 * Short of GitHub Actions' 7.5 s between its SIGINT and SIGTERM on a cancelled job, with room
 * left to measure, store and report (docs/DECISIONS.md, "Interrupted runs").
 */
export const INTERRUPT_GRACE_MS = 3000;

/** The shell's convention: 128 + the signal number. */
const EXIT_CODE = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof EXIT_CODE;

/** SIGINT / SIGTERM as a command sees them while it replays (see {@link watchInterrupts}). */
export interface Interrupt {
  /** aborts at the first signal: start no new request, no new suite or variant */
  readonly stop: AbortSignal;
  /** aborts the grace period after it: stop waiting for the requests in flight */
  readonly abandon: AbortSignal;
  /** the first signal, once one came */
  readonly by: StopSignal | undefined;
  /** 130 after SIGINT, 143 after SIGTERM; undefined while no signal came */
  readonly exitCode: number | undefined;
  /** the grace period, in ms */
  readonly graceMs: number;
  /** Something to do, synchronously, when a second signal forces the exit (mark a run interrupted). */
  onForcedExit(f: () => void): void;
  /** Whether a signal came, once one already delivered has had its turn to be seen. */
  came(): Promise<boolean>;
  /** Give a signal already delivered its turn to be seen, then stop watching. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Watch SIGINT and SIGTERM for the life of a command that replays. The first signal aborts `stop`
 * at once and `abandon` after the grace period (RGATE_INTERRUPT_GRACE_MS, default
 * {@link INTERRUPT_GRACE_MS}; a command reads it with {@link interruptGraceMs} before it opens
 * anything, so a malformed value fails first); the command then finishes what it has and returns `exitCode`. A
 * second signal exits at once with the first one's code: the `onForcedExit` callbacks run, every
 * SUT process group is killed, and the process exits without waiting for anything.
 */
export function watchInterrupts(io: CliIo, graceMs = interruptGraceMs(io.env)): Interrupt {
  const stop = new AbortController();
  const abandon = new AbortController();
  const forced: (() => void)[] = [];
  let by: StopSignal | undefined;
  let grace: NodeJS.Timeout | undefined;
  let disposed = false;
  const onSignal = (signal: StopSignal): void => {
    if (by === undefined) {
      by = signal;
      io.err(
        `\nrgate: ${signal}: stopping: no new requests; those in flight get up to ${seconds(graceMs)} to answer, then are abandoned (${signal} again exits at once)`,
      );
      stop.abort(signal);
      // unref: a run that ends sooner does not wait for it
      grace = setTimeout(() => abandon.abort(signal), graceMs).unref();
      return;
    }
    io.err(`rgate: ${signal} again: exiting now (requests in flight abandoned, their process groups killed)`);
    for (const f of forced) {
      try {
        f();
      } catch {
        // the exit must not wait on, or fail for, the bookkeeping
      }
    }
    killEveryGroup();
    // The one exit that cannot go through the entry point: the command is still awaiting requests
    // that may never end, and the user asked twice.
    process.exit(EXIT_CODE[by]);
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    stop: stop.signal,
    abandon: abandon.signal,
    get by() {
      return by;
    },
    get exitCode() {
      return by === undefined ? undefined : EXIT_CODE[by];
    },
    graceMs,
    onForcedExit(f) {
      forced.push(f);
    },
    async came() {
      await polled();
      return by !== undefined;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      // a signal dropped with its handler would be lost: neither handled nor the default exit
      await polled();
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (grace) clearTimeout(grace);
    },
  };
}

/**
 * A signal that came while the loop was busy (measuring, writing reports) waits in libuv until the
 * loop polls; two turns make sure it did (between two check phases lies a poll phase).
 */
async function polled(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The grace period RGATE_INTERRUPT_GRACE_MS asks for (ms), else the default; a usage error if malformed. */
export function interruptGraceMs(env: NodeJS.ProcessEnv): number {
  const text = env.RGATE_INTERRUPT_GRACE_MS;
  if (text === undefined || text === '') return INTERRUPT_GRACE_MS;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 0) {
    throw new RgateError(
      'usage',
      `RGATE_INTERRUPT_GRACE_MS=${text}: must be a whole number of milliseconds >= 0`,
      `unset it for the default (${INTERRUPT_GRACE_MS})`,
    );
  }
  return ms;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
