import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/** What a test that compares with the trec_eval binary prints when it has none. */
export const TREC_EVAL_HINT =
  'no trec_eval binary: set TREC_EVAL=/path/to/trec_eval (or put trec_eval on PATH) to cross-check';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The trec_eval binary the cross-checks run, where this machine has one: $TREC_EVAL, else `trec_eval`
 * on PATH, else undefined (the tests skip and say so). Nothing is bundled or built by the tests: build
 * NIST's sources outside the repository (README, "Testing"). A TREC_EVAL that names no executable is
 * a mistake, thrown, never a quiet skip.
 */
export function findTrecEval(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env['TREC_EVAL'];
  if (named) {
    const path = resolve(named);
    if (!executable(path)) throw new Error(`TREC_EVAL=${named}: not an executable file`);
    return path;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir && executable(join(dir, 'trec_eval'))) return join(dir, 'trec_eval');
  }
  return undefined;
}
