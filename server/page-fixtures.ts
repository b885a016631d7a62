import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RgateError } from '../src/core/errors.js';
import type { LoadPinnedSet } from '../history/dashboard-views.js';
import { FIXTURE_FILES, loadFixtureSet, type PinnedSuite } from '../src/snapshot/index.js';

/** The pinned fixture sets `rgate server --fixtures <dir>` offers the label queue pages. */
export interface FixtureLibrary {
  dir: string;
  /** the set names found, sorted */
  names: string[];
  loadSet: LoadPinnedSet;
}

/**
 * Load every fixture set of `dir` (a folder of sets, like a checkout's fixtures/, or one set), once, at
 * start-up: a broken set is a start-up error with its file, not a failing page later. A queue page
 * asks for the set by the corpus a run was made on; sets are matched by the corpus content hash, so a
 * renamed folder still matches and an edited corpus never does.
 */
export function fixtureLibrary(dir: string, cwd = process.cwd()): FixtureLibrary {
  const root = resolve(cwd, dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new RgateError(
      'file_not_found',
      `--fixtures ${dir}: no such folder`,
      'name a folder of fixture sets, e.g. --fixtures fixtures (each set a folder with corpus.jsonl, queries.jsonl, config.json)',
    );
  }
  const isSet = (d: string) => existsSync(join(d, FIXTURE_FILES.corpus));
  const dirs = isSet(root)
    ? [root]
    : readdirSync(root, { withFileTypes: true })
        .filter((e) => e.isDirectory() && isSet(join(root, e.name)))
        .map((e) => join(root, e.name))
        .sort();
  if (dirs.length === 0) {
    throw new RgateError(
      'input_invalid',
      `--fixtures ${dir}: holds no fixture set (no folder with ${FIXTURE_FILES.corpus})`,
      'point it at the folder that holds the sets, e.g. --fixtures fixtures',
    );
  }
  const bySha = new Map<string, PinnedSuite>();
  for (const d of dirs) {
    // unverified as `rgate label queue` loads it: the content hash below is what decides a match
    const set = loadFixtureSet(d, { verify: false });
    if (!bySha.has(set.artifacts.corpus_sha256)) bySha.set(set.artifacts.corpus_sha256, set);
  }
  return {
    dir: root,
    names: [...bySha.values()].map((s) => s.name).sort(),
    loadSet: (artifacts) => Promise.resolve(bySha.get(artifacts.corpus_sha256)),
  };
}
