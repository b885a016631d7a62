import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { topHelp } from '../src/cli/program.js';
import { madeFrom } from '../src/cli/bundle-stamp.cjs';
import { compiledCli, REPO } from './helpers/dist.js';

/**
 * The CLI's front runs from the one-file CommonJS bundle the build writes beside program.js
 * (scripts/bundle-program.mjs), so `rgate --help` starts no ES module loader. These hold the
 * bundle's output (help, locales, usage errors, a command's input errors with their exit codes) to
 * the ES modules it is made from.
 */
const program = join(REPO, 'dist', 'src', 'cli', 'program.js');
const bundle = join(REPO, 'dist', 'src', 'cli', 'program-bundle.cjs');

/** What a node process printed and its exit code (run asynchronously: the cases run four at a time). */
function outcome(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('error', fail);
    child.once('close', (code) => done(`${out}--- stderr\n${err}--- exit ${code}\n`));
  });
}

describe('the program bundle', () => {
  it('is written by the build, and current', () => {
    compiledCli();
    expect(existsSync(bundle)).toBe(true);
    expect(madeFrom(bundle, program)).toBe(true);
  });

  it('has the top-level help laid out at every width the build serves', async () => {
    compiledCli();
    const was = process.env.LC_ALL;
    process.env.LC_ALL = 'C';
    try {
      for (const width of [40, 80, 101, 120]) {
        const file = join(REPO, 'dist', 'src', 'cli', 'help', `${width}.txt`);
        expect(readFileSync(file, 'utf8'), `width ${width}`).toBe(`${await topHelp(width)}\n`);
      }
    } finally {
      if (was === undefined) delete process.env.LC_ALL;
      else process.env.LC_ALL = was;
    }
  });

  it('prints, and exits, as the ES modules do', async () => {
    const esm = (argv: string[]): string[] => [
      '--input-type=module',
      '-e',
      `const { runCli } = await import(${JSON.stringify(pathToFileURL(program).href)});` +
        `process.exitCode = await runCli(${JSON.stringify(argv)});`,
    ];
    const cases: { argv: string[]; env?: NodeJS.ProcessEnv }[] = [
      { argv: ['--help'] },
      { argv: ['--help'], env: { COLUMNS: '120' } },
      { argv: ['--help'], env: { LANG: 'de_DE.UTF-8' } },
      // `--help` alone is printed from the files the build wrote (help-cache.cts): every width,
      // locale and fallback must print what yargs prints
      { argv: ['-h'], env: { COLUMNS: '40' } },
      { argv: ['--help'], env: { COLUMNS: '97' } },
      { argv: ['--help'], env: { COLUMNS: '200' } },
      { argv: ['--help'], env: { COLUMNS: '30' } },
      { argv: ['--help'], env: { LANG: 'pt_BR.UTF-8' } },
      { argv: ['--help'], env: { LANG: 'de_AT' } },
      { argv: ['--help'], env: { LANG: 'en_GB.UTF-8', LC_ALL: 'xx_YY' } },
      { argv: ['run', '--help'] },
      { argv: ['label', '--help'], env: { COLUMNS: '60' } },
      { argv: [] },
      { argv: ['--version'] },
      { argv: ['runn'] },
      { argv: ['run', '--replays', 'abc'] },
      { argv: ['report', join(REPO, 'no-such-report.json')] },
    ];
    const cli = compiledCli();
    for (let i = 0; i < cases.length; i += 2) {
      const pairs = await Promise.all(
        cases.slice(i, i + 2).map(async (c) => {
          const env = { COLUMNS: '80', LANG: 'C', ...c.env };
          const [bundled, modules] = await Promise.all([
            outcome([cli, ...c.argv], env),
            outcome(esm(c.argv), env),
          ]);
          return { c, bundled, modules };
        }),
      );
      for (const { c, bundled, modules } of pairs) expect(bundled, c.argv.join(' ')).toBe(modules);
    }
  });
});
