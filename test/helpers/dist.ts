import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');

/**
 * Tests that run the real CLI as a child process use the compiled `dist/` that `npm test` builds
 * first (its typecheck step is `tsc -p .`). Building here instead would rewrite dist/ while other
 * test files run it.
 */
export function compiledCli(): string {
  const bin = join(REPO, 'dist', 'src', 'cli', 'bin.cjs');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first (\`npm test\` does)`);
  return bin;
}
