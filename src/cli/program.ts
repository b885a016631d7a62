import { editDistance } from '../core/edit-distance.js';
import { EXIT } from '../core/errors.js';
import type { AnyCommand, CliIo } from './command.js';
import { loadCommands } from './commands/index.js';
import { reportFailure } from './failure.js';
import { defaultIo } from './io.js';
import { scoreArgv } from './score-route.cjs';
import yargs from './yargs-cjs.cjs';

/**
 * Help width: the terminal's (or $COLUMNS, as shells export it), 80 when neither says, never wider
 * than 120 (long lines read badly).
 */
function helpWidth(): number {
  return Math.min(120, process.stdout.columns || Number(process.env.COLUMNS) || 80);
}

/**
 * Parse argv and run one command; returns the exit code. User mistakes (RgateError) print one or two
 * lines and exit 2; anything else is an internal error (exit 3) with the stack only under --debug.
 */
export async function runCli(
  argv: string[],
  io: CliIo = defaultIo(),
  commands?: AnyCommand[],
): Promise<number> {
  // `rgate score` is read getopt-style, as trec_eval's users type it (see score-argv.ts)
  const score = scoreArgv(argv);
  if (score) return (await import('./score-main.js')).runScoreCli(score, io);
  const available = commands ?? (await loadCommands(argv));
  // before yargs: with --help it would print the top-level help for a typo and exit 0
  const unknown = unknownCommand(argv, available);
  if (unknown !== undefined) {
    io.err(`rgate: ${unknown}`);
    io.err('Run `rgate --help` for the list of commands.');
    return EXIT.usage;
  }
  let exitCode: number = EXIT.ok;
  const debug = argv.includes('--debug');
  const y = parser(argv, available, helpWidth(), io, (code) => {
    exitCode = code;
  });
  try {
    await y.parseAsync();
    return exitCode;
  } catch (e) {
    if (e instanceof UsageError) {
      // bare `rgate`: the message points at the list of commands, so print it
      if (!argv.some((a) => !a.startsWith('-'))) io.err(await y.getHelp());
      io.err(`rgate: ${e.message}`);
      io.err('Run `rgate --help` or `rgate <command> --help` for usage.');
      return EXIT.usage;
    }
    return reportFailure(e, io, debug);
  }
}

/**
 * What `rgate --help` prints (without its final line feed) at a help width, in the locale yargs
 * finds in the environment. The build writes it for every width bin.cts may be asked for
 * (scripts/write-help.mjs), so the commonest request loads neither yargs nor the program.
 */
export async function topHelp(width: number): Promise<string> {
  const noIo: CliIo = { out: () => {}, err: () => {}, color: false, isTty: false, cwd: '.', env: {} };
  return parser(['--help'], await loadCommands([]), width, noIo, () => {}).getHelp();
}

/** The yargs program: every command of `available`, help laid out `width` columns wide. */
function parser(
  argv: string[],
  available: AnyCommand[],
  width: number,
  io: CliIo,
  done: (code: number) => void,
): ReturnType<typeof yargs> {
  let y = yargs(argv)
    .scriptName('rgate')
    .usage(
      'rgate <command> [options]\n\nEvaluation and quality gates for retrieval and context-loading systems.',
    )
    .option('debug', { type: 'boolean', describe: 'show stack traces for internal errors', global: true })
    .strict()
    .demandCommand(1, 'Name a command (see the list above).')
    .middleware((args) => {
      // yargs turns `--replays abc` into NaN; name the option and what was typed instead
      const nan = Object.keys(args).filter((k) => typeof args[k] === 'number' && Number.isNaN(args[k]));
      if (nan.length === 0) return;
      const name = nan.reduce((a, b) => (b.length > a.length ? b : a));
      const typed = nan.map((k) => typedAfter(argv, k)).find((t) => t !== undefined) ?? '';
      throw new UsageError(`--${name} ${JSON.stringify(typed)}: not a number`);
    }, true)
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(width)
    .epilogue(
      'Exit codes: 0 PASS/WATCH, 1 FAIL, 2 usage or input error, 3 system-under-test or internal error.',
    )
    .fail((msg, err) => {
      if (err) throw err;
      throw new UsageError(msg ?? 'invalid usage');
    });
  for (const c of available) {
    y = y.command(c.command, c.describe, c.builder, async (args) => {
      done(await c.handler(args, io));
    });
  }
  return y;
}

class UsageError extends Error {}

/**
 * The message for a first word that names no command (`unknown command plna`), with the nearest
 * command when one is within two edits (ties by list order); undefined when argv names a command or
 * none (bare `rgate`, `rgate --help`). `help` stays yargs's: `rgate help` prints the help.
 */
function unknownCommand(argv: readonly string[], available: readonly AnyCommand[]): string | undefined {
  const first = argv.find((a) => !a.startsWith('-'));
  if (first === undefined || first === 'help') return undefined;
  const names = available.map((c) => c.command.split(' ')[0]!);
  if (names.includes(first)) return undefined;
  let near: string | undefined;
  let best = 3;
  for (const n of names) {
    const d = editDistance(first, n);
    if (d < best && d < n.length) [near, best] = [n, d];
  }
  return `unknown command ${first}${near ? `; did you mean ${near}?` : ''}`;
}

/** What followed `--key` (or `-k`, or `--key=`) on the command line, as typed. */
function typedAfter(argv: readonly string[], key: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const flag = key.length === 1 ? `-${key}` : `--${key}`;
    if (a.startsWith(`${flag}=`)) return a.slice(flag.length + 1);
    if (a === flag) return argv[i + 1];
  }
  return undefined;
}
