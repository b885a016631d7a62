import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { runCommand } from './run.js';

/**
 * `rgate run` from its one-file bundle (scripts/bundle-run.mjs) when the build wrote it after run.js,
 * otherwise (tsc alone, a stale bundle) from the modules. One CommonJS file loads synchronously where
 * the ES module loader resolves, reads and links ~290 files one by one.
 */
export async function loadRunCommand(): Promise<typeof runCommand> {
  const bundle = fileURLToPath(new URL('./run-bundle.cjs', import.meta.url));
  const compiled = fileURLToPath(new URL('./run.js', import.meta.url));
  if (existsSync(bundle) && existsSync(compiled) && statSync(bundle).mtimeMs >= statSync(compiled).mtimeMs) {
    return (createRequire(import.meta.url)(bundle) as typeof import('./run.js')).runCommand;
  }
  return (await import('./run.js')).runCommand;
}
