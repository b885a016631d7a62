/**
 * Bundles `rgate run` (dist/src/cli/commands/run.js and the ~290 modules it imports) into one
 * CommonJS file beside it, dist/src/cli/commands/run-bundle.cjs, that run-entry.ts loads
 * synchronously: resolving, reading and linking each ES module was ~0.3 s of CPU of a run's start
 * on this 2-core machine (docs/DECISIONS.md, "the fixed costs of a per-query command system").
 * Runs after tsc, on its output, so the bundle is the same code the tests import; run-entry.ts uses
 * it only when its stamp (run-bundle.cjs.from) is that of run.js as it is. Every module keeps its own location: `import.meta.url` is rewritten to the URL of the
 * module's compiled file, so templates, precompiled validators and the run-reading worker are found
 * where the unbundled module finds them. Beside it, run-bundle.v8cache: V8's code cache of the
 * bundle as run-entry.ts compiles it (node's CommonJS wrapper around it), which spares parsing the
 * ~0.9 MB file on each run; V8 refuses a cache from another node or of another source, and the
 * bundle is then compiled as if there were none.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Module } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'rolldown';
import { stampBundle } from './stamp-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const commands = join(root, 'dist/src/cli/commands');
const dist = join(root, 'dist');

await build({
  input: join(commands, 'run.js'),
  platform: 'node',
  logLevel: 'warn',
  // native code, and packages a module requires by a name computed at run time, stay in node_modules
  external: ['better-sqlite3', 'handlebars', 'handlebars/runtime', 'ajv', 'ajv-formats', 'pg'],
  // jsonc-parser's `main` is a UMD build that requires its parts by computed names: take its ES build
  resolve: { mainFields: ['module', 'main'] },
  plugins: [
    {
      name: 'own-module-url',
      transform(code, id) {
        if (!code.includes('import.meta')) return null;
        if (!id.startsWith(dist + sep)) throw new Error(`bundle-run: ${id} uses import.meta outside dist/`);
        const rest = code.replaceAll('import.meta.url', '');
        if (rest.includes('import.meta')) throw new Error(`bundle-run: ${id} uses import.meta beyond .url`);
        const rel = relative(commands, id).split(sep).join('/');
        const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(rel)})).href`;
        return code.replaceAll('import.meta.url', `(${url})`);
      },
    },
  ],
  output: { file: join(commands, 'run-bundle.cjs'), format: 'cjs', codeSplitting: false },
});
const file = join(commands, 'run-bundle.cjs');
const out = readFileSync(file, 'utf8');
if (out.includes('import.meta')) throw new Error('bundle-run: import.meta left in the bundle');
if (!out.includes('runCommand')) throw new Error('bundle-run: the bundle does not export runCommand');
stampBundle(file, join(commands, 'run.js'));
// compiled, not run: the cache holds what compiling the file makes (a build runs no command)
writeFileSync(
  join(commands, 'run-bundle.v8cache'),
  new vm.Script(Module.wrap(out), { filename: file }).createCachedData(),
);
