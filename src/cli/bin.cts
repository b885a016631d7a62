#!/usr/bin/env node
/**
 * The rgate command. CommonJS on purpose: `rgate score` loads one CommonJS bundle synchronously,
 * where the ES module loader would read the entry, its imports and the bundle asynchronously (about
 * 10 ms of a 50-query score). `rgate --help` prints what the build laid out (help-cache.cts).
 * Everything else goes to the program, bundled the same way.
 */
import { join } from 'node:path';
import { madeFrom } from './bundle-stamp.cjs';
import { fdIo, isTerminal, writeAll } from './fd-io.cjs';
import { cachedTopHelp, isTopHelp } from './help-cache.cjs';
import { scoreArgv } from './score-route.cjs';
import { exitWithCommand } from './unsettled.cjs';

type ScoreMain = typeof import('./score-main.js');
type Program = typeof import('./program.js');

/**
 * `rgate score` from the one-file bundle the build writes (dist/bundle), when it was made from
 * score-main.js as it is (bundle-stamp.cts); otherwise (tsc alone, a stale bundle) from the modules.
 */
async function loadScoreMain(): Promise<ScoreMain> {
  const bundle = join(__dirname, '..', '..', 'bundle', 'score-main.cjs');
  if (madeFrom(bundle, join(__dirname, 'score-main.js'))) {
    // a synchronous load of one file is the point of this entry (see above)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(bundle) as ScoreMain;
  }
  return import('./score-main.js');
}

/**
 * The program (parsing, help, the command list) from its one-file bundle (scripts/bundle-program.mjs)
 * when made from program.js as it is: `rgate --help` then loads no ES module at all; a command's modules load on their own.
 */
async function loadProgram(): Promise<Program> {
  const bundle = join(__dirname, 'program-bundle.cjs');
  if (madeFrom(bundle, join(__dirname, 'program.js'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(bundle) as Program;
  }
  return import('./program.js');
}

async function main(argv: string[]): Promise<number> {
  if (isTopHelp(argv)) {
    // the terminal's width when there is one; otherwise stdout's stream is not worth making
    const columns = isTerminal(1) ? process.stdout.columns : undefined;
    const help = cachedTopHelp(__dirname, columns, process.env);
    if (help !== undefined) {
      // as yargs's console.log does, a reader that has gone (`rgate --help | head -1`) is no error
      writeAll(1, help);
      return 0;
    }
  }
  const score = scoreArgv(argv);
  if (score) {
    const m = await loadScoreMain();
    return m.runScoreCli(score, fdIo());
  }
  return (await loadProgram()).runCli(argv);
}

exitWithCommand(main(process.argv.slice(2)));
