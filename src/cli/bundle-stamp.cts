/**
 * Whether a file the build made from a compiled module (a bundle, the laid-out help) is still that
 * module's, told by content: beside it the build writes `<file>.from`, a copy of the module's bytes
 * as it was made from them, and the loaders compare the two. Modification times cannot tell it: npm
 * gives every file of an installed package the time it extracted it, in the tarball's order, so a
 * bundle can look older than its module and be skipped for good. A copy, not a hash: the modules
 * are a few kB, and comparing bytes costs ~0.1 ms where node's first sha-256 (OpenSSL starting)
 * cost 1-10 ms here, on every `rgate --help` and `rgate score`. Only node: modules: bin.cts asks
 * before anything else is loaded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether `made` (a file the build wrote, with its `<made>.from`) was made from `compiled` as it is.
 * `checkout`: rgate runs from its own source checkout (not an installed package), where `tsc` alone
 * rewrites every compiled module but no bundle. The stamp only holds the bundle's entry module, which
 * an edit deeper down leaves unchanged, so there the bundle must also be at least as new as that
 * module (the build writes it after tsc); an installed package's times mean nothing and are not read.
 */
export function madeFrom(made: string, compiled: string, checkout = isCheckout(dirname(made))): boolean {
  const stamp = `${made}.from`;
  if (!existsSync(made) || !existsSync(stamp) || !existsSync(compiled)) return false;
  if (checkout && statSync(made).mtimeMs < statSync(compiled).mtimeMs) return false;
  return readFileSync(stamp).equals(readFileSync(compiled));
}

/**
 * Whether `dir` is inside a source checkout: the nearest package.json above it has tsconfig.json
 * beside it (the package does not ship one).
 */
function isCheckout(dir: string): boolean {
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return existsSync(join(dir, 'tsconfig.json'));
}
