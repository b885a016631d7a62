/**
 * Bundles `rgate score` (dist/src/cli/score-entry.js) into one CommonJS file, dist/bundle/
 * score-main.cjs, and the run-reading worker beside it: loaded as one file, synchronously, instead
 * of ~60 ES modules, a 50-query score spends its time scoring, not resolving imports
 * (docs/DECISIONS.md). Runs after tsc, on its output, so the bundle is the same code the tests
 * import; bin.cts uses it only when its stamp (<bundle>.from) is
 * that of score-main.js as it is.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { stampBundle } from './stamp-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/bundle`;
rmSync(out, { recursive: true, force: true });
await build({
  input: `${root}dist/src/cli/score-entry.js`,
  platform: 'node',
  logLevel: 'warn',
  output: { file: `${out}/score-main.cjs`, format: 'cjs' },
});
stampBundle(`${out}/score-main.cjs`, `${root}dist/src/cli/score-main.js`);
// run-read.ts starts its worker as new URL('./run-read-worker.js', <its own file>): the bundle's
// folder, as an ES module like the package's other .js files
await build({
  input: `${root}dist/src/trec/run-read-worker.js`,
  platform: 'node',
  logLevel: 'warn',
  output: { file: `${out}/run-read-worker.js`, format: 'esm' },
});
