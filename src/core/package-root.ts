import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * rgate's own package folder (where its package.json, bundled gates/ and demo fixtures/ live): found
 * by walking up from this file, so it is the same from src/ under vitest, from dist/src/ in a build
 * and from node_modules/rgate/dist/src/ once installed.
 */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'rgate')
      return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(from, '..', '..');
    dir = up;
  }
}

/**
 * Where a thing named by id is looked for: the user's project first, then rgate's package (the
 * bundled gates and demo fixture sets). One folder when the project is rgate's own checkout.
 * Example: lookupRoots('/team/repo') → ['/team/repo', '/team/repo/node_modules/rgate']
 */
export function lookupRoots(projectRoot: string): string[] {
  const project = resolve(projectRoot);
  return project === PACKAGE_ROOT ? [project] : [project, PACKAGE_ROOT];
}
