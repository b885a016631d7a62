import { basename, join, resolve } from 'node:path';
import { RgateError } from '../core/errors.js';
import type { Freeze, FreezeHistoryEntry, FreezeOutput } from '../documents/index.js';
import { readArtifacts } from './artifact-ids.js';
import { sha256FileSync } from './content-hash.js';
import { buildFreeze, hasFreeze, readFreeze, writeFreezeFile } from './freeze-file.js';
import { FIXTURE_FILES, type ArtifactIds } from './types.js';
import { compareVersions, nextVersion } from './version.js';

export interface WriteFreezeOptions {
  /** the version to freeze as (first freeze: default `v1`; a change needs a higher one) */
  version?: string;
  /** why the baseline moves; required for every new version */
  resetNote?: string;
  /** YYYY-MM-DD; metadata only. The CLI defaults it to today's UTC date. */
  frozenOn: string;
  /** artifact id (default `<set>-fixture`) */
  artifactId?: string;
}

/** created: first freeze; unchanged: nothing to do (file untouched); bumped: a new version */
export type WriteFreezeResult = FreezeOutput;

/**
 * Freeze a fixture set folder: hash its artifacts and write freeze.json, enforcing the binding:
 * any change (query set, config/profiles, or corpus) is refused unless the version goes up AND a
 * reset note is given. Throws RgateError('freeze_violation') when refused.
 */
export function writeFreeze(dir: string, opts: WriteFreezeOptions): WriteFreezeResult {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(opts.frozenOn))
    throw new RgateError('usage', `--date ${opts.frozenOn}: expected YYYY-MM-DD`);
  const name = basename(resolve(dir));
  const previous = hasFreeze(dir) ? readFreeze(dir) : undefined;
  const note = opts.resetNote?.trim() || undefined;

  if (!previous) {
    const version = opts.version ?? 'v1';
    const ids = readArtifacts(dir, version, name).ids;
    const freeze = build(ids, opts.artifactId ?? `${name}-fixture`, opts.frozenOn, [], note, rawHashes(dir));
    writeFreezeFile(dir, freeze);
    return { freeze, action: 'created', changed: { corpus: true, query_set: true, config: true } };
  }

  // hash under the previous version first, to see what changed
  const now = readArtifacts(dir, previous.version, name).ids;
  const changed = {
    corpus: now.corpus_sha256 !== previous.corpus_sha256,
    query_set: now.query_set_sha256 !== previous.query_set_sha256,
    config: now.config_sha256 !== previous.config_sha256,
  };
  const anyChange = changed.corpus || changed.query_set || changed.config;
  const wantsNewVersion = opts.version !== undefined && opts.version !== previous.version;
  if (!anyChange && !wantsNewVersion) return { freeze: previous, action: 'unchanged', changed };

  const what = describeChange(changed);
  const suggestion = nextVersion(previous.version);
  if (!wantsNewVersion)
    throw new RgateError(
      'freeze_violation',
      `${dir}: ${what} changed since ${previous.artifact_id} ${previous.version} was frozen; re-freezing needs a version bump`,
      `rgate freeze ${dir} --version ${suggestion} --reset-note "why the baseline moves"`,
    );
  const version = opts.version!;
  if (compareVersions(version, previous.version) <= 0 || previous.history.some((h) => h.version === version))
    throw new RgateError(
      'freeze_violation',
      `${dir}: version ${version} is not above the frozen version ${previous.version} (or was used before)`,
      `use a higher version, e.g. --version ${suggestion}`,
    );
  // Every new version needs its note: the seed demands it for query/profile changes, and a corpus
  // change moves the baseline just as much (baseline comparisons cite one note per version step).
  if (!note)
    throw new RgateError(
      'freeze_violation',
      anyChange
        ? `${dir}: ${what} changed; version ${version} needs a baseline reset note (seed 000 "Fixture Freeze Binding")`
        : `${dir}: version ${version} needs a baseline reset note (nothing changed; say why the version moves)`,
      `add --reset-note "what changed and why the Gate C baseline is reset"`,
    );
  const ids = { ...now, ...readArtifactsIdsUnder(now, version) };
  const freeze = build(ids, previous.artifact_id, opts.frozenOn, previous.history, note, rawHashes(dir));
  writeFreezeFile(dir, freeze);
  return { freeze, action: 'bumped', changed };
}

function readArtifactsIdsUnder(ids: ArtifactIds, version: string): Partial<ArtifactIds> {
  const swap = (id: string): string => id.replace(/@[^#]*#/, `@${version}#`);
  return {
    version,
    corpus_id: swap(ids.corpus_id),
    query_set_id: swap(ids.query_set_id),
    config_id: swap(ids.config_id),
  };
}

function rawHashes(dir: string): NonNullable<Freeze['raw_sha256']> {
  return {
    corpus: sha256FileSync(join(dir, FIXTURE_FILES.corpus)),
    query_set: sha256FileSync(join(dir, FIXTURE_FILES.query_set)),
  };
}

function describeChange(c: { corpus: boolean; query_set: boolean; config: boolean }): string {
  const parts = [
    c.corpus ? 'the corpus' : undefined,
    c.query_set ? 'the query set' : undefined,
    c.config ? 'the config' : undefined,
  ].filter((x): x is string => x !== undefined);
  return parts.length ? parts.join(' and ') : 'nothing';
}

function build(
  ids: ArtifactIds,
  artifactId: string,
  frozenOn: string,
  history: readonly FreezeHistoryEntry[],
  note: string | undefined,
  raw: NonNullable<Freeze['raw_sha256']>,
): Freeze {
  const entry: FreezeHistoryEntry = {
    version: ids.version,
    frozen_on: frozenOn,
    corpus_id: ids.corpus_id,
    query_set_id: ids.query_set_id,
    config_id: ids.config_id,
    ...(note ? { reset_note: note } : {}),
  };
  return buildFreeze(ids, { artifactId, frozenOn, history: [...history, entry], raw });
}
