import { existsSync, readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { madeFrom } from '../bundle-stamp.cjs';
import type { runCommand } from './run.js';

type RunModule = typeof import('./run.js');

/**
 * `rgate run` from its one-file bundle (scripts/bundle-run.mjs) when it was made from run.js as it is
 * (bundle-stamp.cts), otherwise (tsc alone, a stale bundle) from the modules. One CommonJS file loads synchronously where
 * the ES module loader resolves, reads and links ~290 files one by one.
 */
export async function loadRunCommand(): Promise<typeof runCommand> {
  const bundle = fileURLToPath(new URL('./run-bundle.cjs', import.meta.url));
  const compiled = fileURLToPath(new URL('./run.js', import.meta.url));
  if (madeFrom(bundle, compiled)) {
    const cache = fileURLToPath(new URL('./run-bundle.v8cache', import.meta.url));
    if (existsSync(cache)) return loadWithCodeCache(bundle, readFileSync(cache)).exports.runCommand;
    return (createRequire(import.meta.url)(bundle) as RunModule).runCommand;
  }
  return (await import('./run.js')).runCommand;
}

/**
 * The bundle as node's require loads it (the same CommonJS wrapper, file name and require), but
 * compiled with V8's code cache the build made: ~17 ms of CPU less per run. A cache V8 refuses
 * (another node, another source) only means the file is compiled in full, as require would.
 */
export function loadWithCodeCache(
  bundle: string,
  cachedData: Buffer,
): { exports: RunModule; cacheRejected: boolean } {
  const script = new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as RunModule };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, cacheRejected: script.cachedDataRejected === true };
}
