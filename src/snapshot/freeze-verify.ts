import { basename, join, resolve } from 'node:path';
import { RgateError } from '../core/errors.js';
import { readConfigFile } from './read-artifacts.js';
import { hashJsonlFile, sha256FileSync } from './content-hash.js';
import { readFreeze } from './freeze-file.js';
import type { Freeze } from '../documents/index.js';
import { FIXTURE_FILES, type FileCheck, type VerifyResult } from './types.js';

/**
 * Compare a fixture set folder with its freeze.json (hash-only: one streaming pass per file).
 * Never throws for a mismatch (see assertFixtureSetVerified); throws for a missing/invalid freeze.
 */
export function verifyFixtureSet(dir: string): VerifyResult {
  const freeze = readFreeze(dir);
  const jsonl = (file: string, raw: string | undefined, canonical: string): string => {
    const path = join(dir, file);
    // identical bytes mean identical canonical content: skip parsing (raw hashing runs at >= 1 GiB/s)
    if (raw !== undefined && sha256FileSync(path) === raw) return canonical;
    return hashJsonlFile(path, file).sha256;
  };
  const actual = {
    corpus: jsonl(freeze.files.corpus, freeze.raw_sha256?.corpus, freeze.corpus_sha256),
    query_set: jsonl(freeze.files.query_set, freeze.raw_sha256?.query_set, freeze.query_set_sha256),
    // always resolved: a changed default changes config_id even when config.json's bytes did not change
    config: readConfigFile(join(dir, freeze.files.config)).sha256 as string,
  };
  return compareWithFreeze(dir, freeze, actual);
}

/** Build the VerifyResult for hashes computed elsewhere (loadFixtureSet hashes while it parses). */
export function compareWithFreeze(
  dir: string,
  freeze: Freeze,
  actual: { corpus: string; query_set: string; config: string },
): VerifyResult {
  const checks: FileCheck[] = [
    check('corpus', join(dir, freeze.files.corpus), freeze.corpus_sha256, actual.corpus),
    check('query_set', join(dir, freeze.files.query_set), freeze.query_set_sha256, actual.query_set),
    check('config', join(dir, freeze.files.config), freeze.config_sha256, actual.config),
  ];
  const problems = checks
    .filter((c) => !c.ok)
    .map((c) => `${c.file}: content ${c.actual} does not match ${FIXTURE_FILES.freeze} ${c.expected}`);
  return {
    ok: problems.length === 0,
    dir,
    name: basename(resolve(dir)),
    artifact_id: freeze.artifact_id,
    version: freeze.version,
    checks,
    problems,
  };
}

function check(part: FileCheck['part'], file: string, expected: string, actual: string): FileCheck {
  return { part, file, ok: expected === actual, expected, actual };
}

/** The throwing form used by runs: RgateError 'freeze_mismatch' (exit 2) naming the file and both hashes. */
export function assertVerified(result: VerifyResult): void {
  if (result.ok) return;
  throw new RgateError(
    'freeze_mismatch',
    `${result.artifact_id} ${result.version} does not match its freeze: ${result.problems.join('; ')}`,
    `restore the file, or re-freeze with a version bump: rgate freeze ${result.dir} --version <next> --reset-note "..."`,
  );
}

export function assertFixtureSetVerified(dir: string): VerifyResult {
  const r = verifyFixtureSet(dir);
  assertVerified(r);
  return r;
}
