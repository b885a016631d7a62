/**
 * `npm run bench`: every benchmark in this folder, one after another (never in parallel: they compare
 * wall times against a reference measured in the same run). Each module exports `run()` and writes
 * its own benchmarks/results/<name>.json; this prints a one-line summary per benchmark.
 * `npm run bench -- engine-fts5` runs only the named ones.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const names = readdirSync(here)
  .filter(
    (f) => f.endsWith('.js') && !f.startsWith('run-all') && !f.startsWith('_') && !f.endsWith('.test.js'),
  )
  .map((f) => f.slice(0, -3))
  .filter((n) => only.length === 0 || only.includes(n))
  .sort();

let failed = 0;
for (const name of names) {
  const mod = (await import(pathToFileURL(join(here, `${name}.js`)).href)) as {
    run?: () => Promise<unknown>;
  };
  if (typeof mod.run !== 'function') continue;
  process.stdout.write(`\n=== ${name}\n`);
  try {
    await mod.run();
  } catch (e) {
    failed++;
    process.stdout.write(`benchmark ${name} failed: ${(e as Error).message}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
