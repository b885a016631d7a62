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
import { existsSync, readFileSync } from 'node:fs';

/** Whether `made` (a file the build wrote, with its `<made>.from`) was made from `compiled` as it is. */
export function madeFrom(made: string, compiled: string): boolean {
  const stamp = `${made}.from`;
  if (!existsSync(made) || !existsSync(stamp) || !existsSync(compiled)) return false;
  return readFileSync(stamp).equals(readFileSync(compiled));
}
