/**
 * Bundles `rgate score` (dist/src/cli/score-main.js and the run-reading worker) into dist/bundle/:
 * loaded as one file instead of ~60 modules, a 50-query score spends its time scoring, not resolving
 * imports (docs/DECISIONS.md, "rgate score start-up"). Runs after tsc, on its output, so the bundle
 * is the same code the tests import; bin.ts uses it only when it is newer than that output.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/bundle`;
rmSync(out, { recursive: true, force: true });
await build({
  input: {
    'score-main': `${root}dist/src/cli/score-main.js`,
    // run-read.ts starts it as new URL('./run-read-worker.js', import.meta.url): same folder
    'run-read-worker': `${root}dist/src/trec/run-read-worker.js`,
  },
  platform: 'node',
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name].js' },
});
