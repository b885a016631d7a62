import type { Argv } from 'yargs';

/** What a command handler may use to talk to the user; injected so handlers are testable. */
export interface CliIo {
  out(text: string): void;
  /** UTF-8 bytes written as they are (a large report, in pieces: its last piece ends with its line feed) */
  outBytes?(bytes: Uint8Array): void;
  err(text: string): void;
  /** true when stdout is a TTY and NO_COLOR is unset */
  color: boolean;
  isTty: boolean;
  /** the terminal's columns when stdout is one (unset for a file or a pipe) */
  columns?: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * One command = one file exporting this object (Lighthouse CI style): a yargs builder and a handler
 * that returns an exit code. Only bin.cts sets process.exitCode.
 */
export interface RgateCommand<A = Record<string, unknown>> {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  handler: (args: A, io: CliIo) => Promise<number>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = RgateCommand<any>;
