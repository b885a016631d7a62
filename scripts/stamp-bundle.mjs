/**
 * Writes `<made>.from` beside a file the build made from a compiled module (a bundle, the laid-out
 * help): a copy of that module's bytes, which the loaders compare with the module before they use
 * the file (src/cli/bundle-stamp.cts).
 */
import { copyFileSync } from 'node:fs';

/** Stamps `made` as made from `compiled` (both absolute paths). */
export function stampBundle(made, compiled) {
  copyFileSync(compiled, `${made}.from`);
}
