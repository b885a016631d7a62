import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * A global setup of the unit suite (vitest.config.ts): what the tests write belongs in temp folders,
 * so the repository's .rgate/ (ignored by git, easily missed) must hold the same paths after the run
 * as before it. The end-to-end suite keeps its screenshots there on purpose and does not use this.
 */
const RGATE = resolve(import.meta.dirname, '..', '..', '.rgate');
// the report .ci/run asks vitest itself to write there (--outputFile.json=.rgate/ci-vitest.json)
const OURS = /^ci-vitest[\w-]*\.json$/;

function paths(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (dir === RGATE && OURS.test(e.name)) continue;
    out.push(relative(RGATE, p));
    if (e.isDirectory()) paths(p, out);
  }
  return out;
}

/** The new paths under `dir` since `before`, sorted. */
export function newPaths(before: readonly string[], dir = RGATE): string[] {
  const had = new Set(before);
  return paths(dir)
    .filter((p) => !had.has(p))
    .sort();
}

export default function setup(): () => void {
  const before = paths(RGATE);
  return () => {
    const added = newPaths(before);
    if (added.length > 0) {
      // vitest reports a teardown's error but exits 0 for it: the exit code is set here
      process.exitCode = 1;
      throw new Error(
        `the unit suite wrote into the repository's .rgate/: ${added.map((p) => `.rgate/${p}`).join(', ')}; ` +
          'write to a temp folder (mkdtempSync(join(tmpdir(), ...))) or pass --out-dir',
      );
    }
  };
}
