/**
 * Imports never destroy: an importer writes into a staging copy of the target set, the freeze
 * binding is checked there, and only then do the new files replace the old ones. A refusal (an
 * existing set without --force, a frozen set changed without a version bump and reset note, a bad
 * source file) leaves the target exactly as it was.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isRgateError, RgateError } from '../core/errors.js';
import { hasFreeze, readFreeze } from './freeze-file.js';
import { writeFreeze, type WriteFreezeResult } from './freeze-write.js';
import type { ImportResult } from './importers/common.js';
import { FIXTURE_FILES } from './types.js';

export interface ImportSafelyOptions {
  /** replace an existing set (a frozen one also needs `version` and `resetNote` when it changes) */
  force?: boolean;
  /** freeze the result (a frozen target is always re-frozen) */
  freeze?: boolean;
  version?: string;
  resetNote?: string;
  /** YYYY-MM-DD for freeze.json */
  frozenOn: string;
}

export interface ImportSafelyResult {
  result: ImportResult;
  frozen?: WriteFreezeResult;
}

const SET_FILES = [FIXTURE_FILES.corpus, FIXTURE_FILES.query_set, FIXTURE_FILES.config] as const;

/**
 * Run `importer` into a staging folder beside `out` (same base name, so artifact ids come out as
 * they will in `out`) and move the result into `out` once everything it needs has succeeded.
 * Example: await importSafely('fixtures/cacm', { force: true, version: 'v2', resetNote: '…', frozenOn }, (dir) => importTrec({ …, out: dir }))
 */
export async function importSafely(
  out: string,
  o: ImportSafelyOptions,
  importer: (dir: string) => Promise<ImportResult> | ImportResult,
): Promise<ImportSafelyResult> {
  const target = resolve(out);
  const existing = SET_FILES.filter((f) => existsSync(join(target, f)));
  const frozen = hasFreeze(target) ? readFreeze(target) : undefined;
  if ((existing.length > 0 || frozen) && !o.force) {
    const what = frozen
      ? `the frozen set ${frozen.artifact_id} ${frozen.version} (${frozen.counts.corpus_records} documents, ${frozen.counts.queries} queries)`
      : `a fixture set (${existing.join(', ')})`;
    throw new RgateError(
      'usage',
      `${out} already holds ${what}; importing would replace it`,
      frozen
        ? `to replace it on purpose: --force --version <next> --reset-note "why the baseline moves" (or import into a new folder)`
        : 'to replace it on purpose: --force (or import into a new folder)',
    );
  }

  mkdirSync(dirname(target), { recursive: true });
  const stagingRoot = mkdtempSync(join(dirname(target), `.${basename(target)}.import-`));
  const staged = join(stagingRoot, basename(target));
  try {
    mkdirSync(staged);
    // hand-written provenance notes and the version history travel with the set
    for (const f of [FIXTURE_FILES.provenance, FIXTURE_FILES.freeze])
      if (existsSync(join(target, f))) copyFileSync(join(target, f), join(staged, f));
    const result = await importer(staged);
    const frozenNow = frozen || o.freeze ? freezeStaged(staged, out, o) : undefined;
    mkdirSync(target, { recursive: true });
    for (const f of [...SET_FILES, FIXTURE_FILES.provenance, FIXTURE_FILES.freeze])
      if (existsSync(join(staged, f))) renameSync(join(staged, f), join(target, f));
    return { result: { ...result, dir: out }, ...(frozenNow ? { frozen: frozenNow } : {}) };
  } finally {
    rmSync(stagingRoot, { recursive: true, force: true });
  }
}

/** Freeze the staged set; a refusal names the target the user gave, not the staging folder. */
function freezeStaged(staged: string, out: string, o: ImportSafelyOptions): WriteFreezeResult {
  try {
    return writeFreeze(staged, {
      frozenOn: o.frozenOn,
      ...(o.version !== undefined ? { version: o.version } : {}),
      ...(o.resetNote !== undefined ? { resetNote: o.resetNote } : {}),
    });
  } catch (e) {
    if (!isRgateError(e)) throw e;
    throw new RgateError(
      e.code,
      `${e.message.split(staged).join(out)}; nothing was replaced`,
      'add --version <next> --reset-note "why the baseline moves" to the import, or import into a new folder',
    );
  }
}
