/**
 * Bundles the CLI's front (dist/src/cli/program.js: argument parsing, help, the command list, error
 * reporting, and yargs with its dependencies) into one CommonJS file beside it,
 * dist/src/cli/program-bundle.cjs, that bin.cts loads synchronously: `rgate --help` then starts no ES
 * module loader and resolves no package, and a command loads only its own modules (the bundle's
 * dynamic imports of the command modules stay imports of dist/src/cli/commands/*.js). Runs after
 * tsc, on its output; bin.cts uses the bundle only when its stamp
 * (program-bundle.cjs.from) is that of program.js as it is.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { stampBundle } from './stamp-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/src/cli');
const commands = join(cli, 'commands');

await build({
  input: join(cli, 'program.js'),
  platform: 'node',
  logLevel: 'warn',
  // a command module (and the score path) is loaded when its command runs, from its own file
  external: (id, importer) =>
    (importer !== undefined && dirname(importer) === commands && !id.endsWith('summaries.js')) ||
    id === './score-main.js',
  plugins: [
    {
      // yargs finds its locales beside its own build (__dirname/../locales): keep them found there
      name: 'yargs-locales',
      transform(code, id) {
        if (!id.endsWith(join('yargs', 'build', 'index.cjs'))) return null;
        const at = '__dirname,"../locales"';
        if (!code.includes(at)) throw new Error('bundle-program: yargs no longer reads ../locales');
        return code.replace(
          at,
          'require("node:path").dirname(require.resolve("yargs/package.json")),"locales"',
        );
      },
    },
  ],
  output: { dir: cli, entryFileNames: 'program-bundle.cjs', format: 'cjs', codeSplitting: false },
});
const out = readFileSync(join(cli, 'program-bundle.cjs'), 'utf8');
if (!out.includes('require.resolve("yargs/package.json")')) {
  throw new Error('bundle-program: the yargs locales path was not rewritten');
}
stampBundle(join(cli, 'program-bundle.cjs'), join(cli, 'program.js'));
