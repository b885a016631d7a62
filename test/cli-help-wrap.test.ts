/**
 * Help text wraps at word boundaries at the terminal's width (issue #14): at 80 and at 120 columns
 * every command's help holds exactly the same words, so no word (`--json`, `requests`) was cut in
 * two, and no line is wider than asked.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiledCli, REPO } from './helpers/dist.js';

async function help(args: string[], columns: number): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [compiledCli(), ...args, '--help'], {
    cwd: REPO,
    env: { PATH: process.env.PATH, COLUMNS: String(columns), NO_COLOR: '1' },
    encoding: 'utf8',
  });
  return stdout;
}

// yargs may butt a type annotation against a description that exactly fills its column
const words = (s: string) => s.replace(/\[/g, ' [').split(/\s+/).filter(Boolean).sort();

describe('--help wraps at word boundaries', () => {
  // the top level and the commands with the longest options and examples (a spawn costs ~1 s here)
  for (const args of [[], ['run'], ['import'], ['score'], ['compare']]) {
    it.concurrent(`rgate ${args.join(' ')} --help`, async () => {
      const [narrow, wide] = await Promise.all([help(args, 80), help(args, 120)]);
      expect(narrow.split('\n').filter((l) => l.length > 80)).toEqual([]);
      expect(wide.split('\n').filter((l) => l.length > 120)).toEqual([]);
      expect(words(narrow)).toEqual(words(wide));
      expect(narrow).not.toMatch(/-\n\s+-\w/); // "-" / "-json"
    });
  }
});
