/**
 * `rgate --help` without yargs: the build lays the top-level help out once per width
 * (scripts/write-help.mjs, dist/src/cli/help/<width>.txt, from program.ts's topHelp), and bin.cts
 * prints the file that matches this process's width and locale. Node's own start is most of what the
 * help costs then (benchmarks/fixed-costs.ts). Only node: modules here: nothing else is loaded yet.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { madeFrom } from './bundle-stamp.cjs';

/** The widths the build writes; any other width goes to yargs. */
export const HELP_WIDTHS = { min: 40, max: 120 } as const;

/** Whether argv asks for the top-level help and nothing else. */
export function isTopHelp(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h');
}

/** The width program.ts's helpWidth() picks: the terminal's, $COLUMNS, else 80; at most 120. */
export function helpWidthOf(columns: number | undefined, env: NodeJS.ProcessEnv): number {
  return Math.min(120, columns || Number(env.COLUMNS) || 80);
}

/**
 * Whether yargs would print its help in English under env: it takes the first of LC_ALL,
 * LC_MESSAGES, LANG, LANGUAGE that is set and not empty (en_US when none), drops the encoding, and
 * reads that locale's file, else its language's (de_AT -> de), else prints English. `translated`
 * lists the locale files yargs ships other than English.
 */
export function yargsSpeaksEnglish(env: NodeJS.ProcessEnv, translated: readonly string[]): boolean {
  const locale = (env.LC_ALL || env.LC_MESSAGES || env.LANG || env.LANGUAGE || 'en_US').replace(/[.:].*/, '');
  // a locale naming a path could reach a file outside yargs's folder: let yargs answer it
  if (/[\\/]/.test(locale) || translated.includes(locale)) return false;
  const language = locale.includes('_') ? locale.split('_')[0]! : undefined;
  return language === undefined || !translated.includes(language);
}

/**
 * The top-level help the build wrote for this width and locale, or undefined (no file, a width or
 * locale the build did not lay out, or help and bundle not both made from program.js as it is:
 * yargs answers then). help/locales.json is written last, its stamp after it.
 */
export function cachedTopHelp(
  cliDir: string,
  columns: number | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const width = helpWidthOf(columns, env);
  if (!Number.isInteger(width) || width < HELP_WIDTHS.min || width > HELP_WIDTHS.max) return undefined;
  const dir = join(cliDir, 'help');
  const index = join(dir, 'locales.json');
  const file = join(dir, `${width}.txt`);
  const program = join(cliDir, 'program.js');
  const fresh =
    existsSync(file) && madeFrom(join(cliDir, 'program-bundle.cjs'), program) && madeFrom(index, program);
  if (!fresh) return undefined;
  const translated = JSON.parse(readFileSync(index, 'utf8')) as string[];
  if (!yargsSpeaksEnglish(env, translated)) return undefined;
  return readFileSync(file, 'utf8');
}
