/**
 * Writes what `rgate --help` prints at every width src/cli/help-cache.cts serves (one file per width
 * in dist/src/cli/help), and the locales yargs would translate it into, so bin.cts can print the
 * commonest request without loading yargs. Made from the program bundle it is served beside, in
 * English (yargs's locale comes from the environment: the build's must not leak into the files).
 * Runs after scripts/bundle-program.mjs.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stampBundle } from './stamp-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/src/cli');
const require = createRequire(import.meta.url);
for (const k of ['LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE']) delete process.env[k];
const { HELP_WIDTHS } = require(join(cli, 'help-cache.cjs'));
const { topHelp } = require(join(cli, 'program-bundle.cjs'));

const out = join(cli, 'help');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
for (let width = HELP_WIDTHS.min; width <= HELP_WIDTHS.max; width++) {
  // console.log (yargs's way of printing --help) ends the text with a line feed
  writeFileSync(join(out, `${width}.txt`), `${await topHelp(width)}\n`);
}
const locales = join(dirname(require.resolve('yargs/package.json')), 'locales');
const translated = readdirSync(locales)
  .filter((f) => f.endsWith('.json') && f !== 'en.json')
  .map((f) => f.slice(0, -'.json'.length))
  .sort();
writeFileSync(join(out, 'locales.json'), `${JSON.stringify(translated)}\n`);
// written last: help-cache.cts trusts the folder only when it was made from program.js as it is
stampBundle(join(out, 'locales.json'), join(cli, 'program.js'));
