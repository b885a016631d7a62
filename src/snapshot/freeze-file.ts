import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canonicalJson } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { readJsonFile } from '../core/jsonl.js';
import { validateOrThrow } from '../contracts/ajv.js';
import { FREEZE_SCHEMA_VERSION, type Freeze, type FreezeHistoryEntry } from '../documents/index.js';
import { validateFreeze } from '../contracts/freeze.js';
import { FIXTURE_FILES, type ArtifactIds } from './types.js';

/** The freeze rules written into every freeze.json (seed 000 "Fixture Freeze Binding"). */
export const FREEZE_RULES: readonly string[] = [
  'A run uses this set only while corpus.jsonl, queries.jsonl and config.json hash to the sha256 values above (canonical content: key order, CRLF vs LF and trailing spaces do not count; any other change does).',
  'Any change to a query or to the config (profiles, budgets, thresholds) requires a version bump and an explicit baseline reset note, kept in history and cited in the Gate C measurement closeout.',
  'A corpus-only change also requires a version bump and a reset note: it moves the baseline as much as a query change.',
  'frozen_on is metadata and is not part of any id; editing freeze.json by hand breaks its seal.',
];

/** sha256 of the freeze's canonical JSON without its `seal`. */
export function sealOf(f: Omit<Freeze, 'seal'> & { seal?: string }): string {
  const { seal: _seal, ...rest } = f;
  return sha256(canonicalJson(rest));
}

/**
 * The one Freeze builder: a set's ids as a sealed freeze document. `rgate freeze` passes the raw
 * file hashes and the history with its new entry; a never-frozen set read with `verify: false` gets
 * a stand-in with no history.
 */
export function buildFreeze(
  ids: ArtifactIds,
  o: {
    artifactId: string;
    frozenOn: string;
    history: readonly FreezeHistoryEntry[];
    raw?: NonNullable<Freeze['raw_sha256']>;
  },
): Freeze {
  const unsealed: Omit<Freeze, 'seal'> = {
    schema: FREEZE_SCHEMA_VERSION,
    artifact_id: o.artifactId,
    version: ids.version,
    status: 'frozen',
    frozen_on: o.frozenOn,
    files: { corpus: FIXTURE_FILES.corpus, query_set: FIXTURE_FILES.query_set, config: FIXTURE_FILES.config },
    counts: ids.counts,
    corpus_id: ids.corpus_id,
    corpus_sha256: ids.corpus_sha256,
    query_set_id: ids.query_set_id,
    query_set_sha256: ids.query_set_sha256,
    config_id: ids.config_id,
    config_sha256: ids.config_sha256,
    ...(o.raw ? { raw_sha256: o.raw } : {}),
    rules: [...FREEZE_RULES],
    history: [...o.history],
  };
  return { ...unsealed, seal: sealOf(unsealed) };
}

export function freezePath(dir: string): string {
  return join(dir, FIXTURE_FILES.freeze);
}

export function hasFreeze(dir: string): boolean {
  return existsSync(freezePath(dir));
}

/** Read and schema-check freeze.json; a broken seal is a freeze_mismatch. */
export function readFreeze(dir: string): Freeze {
  const path = freezePath(dir);
  if (!existsSync(path))
    throw new RgateError(
      'file_not_found',
      `${path}: no such file (the set is not frozen)`,
      `freeze it first: rgate freeze ${dir}`,
    );
  const f = validateOrThrow(
    validateFreeze,
    readJsonFile(path),
    { file: basename(path) },
    'freeze.json is written by `rgate freeze`; do not edit it by hand',
  );
  if (f.schema !== FREEZE_SCHEMA_VERSION)
    throw new RgateError('input_invalid', `${path}: unknown schema ${f.schema}`);
  const expected = sealOf(f);
  if (expected !== f.seal)
    throw new RgateError(
      'freeze_mismatch',
      `${path}: freeze.json was edited after freezing: seal ${f.seal} does not match its content ${expected}`,
      'restore freeze.json from version control, or re-freeze with a version bump',
    );
  return f;
}

/** freeze.json text: fixed key order, 2-space indent, LF, final newline. */
export function freezeText(f: Freeze): string {
  const ordered: Freeze = {
    schema: f.schema,
    artifact_id: f.artifact_id,
    version: f.version,
    status: f.status,
    frozen_on: f.frozen_on,
    files: f.files,
    counts: f.counts,
    corpus_id: f.corpus_id,
    corpus_sha256: f.corpus_sha256,
    query_set_id: f.query_set_id,
    query_set_sha256: f.query_set_sha256,
    config_id: f.config_id,
    config_sha256: f.config_sha256,
    ...(f.raw_sha256 ? { raw_sha256: f.raw_sha256 } : {}),
    rules: f.rules,
    history: f.history,
    seal: f.seal,
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}

export function writeFreezeFile(dir: string, f: Freeze): void {
  writeFileSync(freezePath(dir), freezeText(f));
}
