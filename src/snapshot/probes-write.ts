/**
 * `rgate probes add`: derive fallback probes from a set's own corpus and write them into its
 * queries.jsonl through the import machinery (importSafely), so a frozen set is re-frozen with a
 * version bump and a reset note, and a refusal leaves every file as it was.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import type { QueryRecord } from '../documents/index.js';
import { loadFixtureSet, resolveFixtureDir } from './fixture-set.js';
import { hasFreeze, readFreeze } from './freeze-file.js';
import { importSafely } from './import-safely.js';
import type { ImportResult } from './importers/common.js';
import { deriveProbes, isGeneratedProbe, type ProbeOptions } from './probes.js';
import { FIXTURE_FILES } from './types.js';
import { nextVersion } from './version.js';
import type { WriteFreezeResult } from './freeze-write.js';

export interface AddProbesOptions extends ProbeOptions {
  /** where fixture names are resolved (`fixtures/<set>` under it) */
  root: string;
  version?: string;
  resetNote?: string;
  /** freeze an unfrozen set afterwards (a frozen one is always re-frozen) */
  freeze?: boolean;
  frozenOn: string;
}

export interface AddProbesResult {
  dir: string;
  /** false when the set already held exactly these probes: nothing was written */
  changed: boolean;
  probes: QueryRecord[];
  /** earlier generated probes that were replaced */
  replaced: number;
  /** queries of the set that are not generated probes, kept as they were */
  kept: number;
  notes: string[];
  frozen?: WriteFreezeResult;
}

/** The set's queries.jsonl lines, split into generated probes and the rest (kept byte for byte). */
function splitQueryLines(path: string): { kept: string[]; keptIds: Set<string>; generated: string[] } {
  const kept: string[] = [];
  const generated: string[] = [];
  const keptIds = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') continue;
    // the set was loaded (and validated) just before, so every line parses
    const q = JSON.parse(text) as QueryRecord;
    if (isGeneratedProbe(q)) generated.push(canonicalJson(q));
    else {
      kept.push(text);
      keptIds.add(q.query_id);
    }
  }
  return { kept, keptIds, generated };
}

export async function addProbes(set: string, o: AddProbesOptions): Promise<AddProbesResult> {
  const dir = resolveFixtureDir(set, o.root);
  const frozen = hasFreeze(dir) ? readFreeze(dir) : undefined;
  // a frozen set must still match its freeze: probes go onto the pinned snapshot, not onto drift
  const suite = loadFixtureSet(dir, { verify: frozen !== undefined });
  const { probes, notes } = deriveProbes(suite.corpus, o);
  const queriesPath = join(dir, FIXTURE_FILES.query_set);
  const { kept, keptIds, generated } = splitQueryLines(queriesPath);
  const clash = probes.find((p) => keptIds.has(p.query_id));
  if (clash) {
    throw new RgateError(
      'input_invalid',
      `${set}: queries.jsonl already has a query "${clash.query_id}" that rgate did not generate`,
      'rename that query; generated probes are named probe-<kind>-<nnn>',
    );
  }
  const fresh = probes.map((p) => canonicalJson(p));
  const base = { dir, probes, replaced: generated.length, kept: kept.length, notes };
  if (fresh.length === generated.length && fresh.every((l, i) => l === generated[i]))
    return { ...base, changed: false };
  if (frozen && (o.version === undefined || o.resetNote === undefined)) {
    throw new RgateError(
      'freeze_violation',
      `${set} is frozen (${frozen.artifact_id} ${frozen.version}); adding probes changes its query set, so the frozen version must move; nothing was written`,
      `rgate probes add ${set} --version ${nextVersion(frozen.version)} --reset-note "fallback probes added"`,
    );
  }
  const text = [...kept, ...fresh].join('\n') + '\n';
  const { frozen: refrozen } = await importSafely(
    dir,
    {
      force: true,
      ...(o.freeze ? { freeze: true } : {}),
      ...(o.version !== undefined ? { version: o.version } : {}),
      ...(o.resetNote !== undefined ? { resetNote: o.resetNote } : {}),
      frozenOn: o.frozenOn,
    },
    (staged): ImportResult => {
      copyFileSync(join(dir, FIXTURE_FILES.corpus), join(staged, FIXTURE_FILES.corpus));
      copyFileSync(join(dir, FIXTURE_FILES.config), join(staged, FIXTURE_FILES.config));
      writeFileSync(join(staged, FIXTURE_FILES.query_set), text);
      return {
        dir,
        counts: { ...suite.freeze.counts, queries: kept.length + probes.length },
        notes,
        sources: [],
      };
    },
  );
  return { ...base, changed: true, ...(refrozen ? { frozen: refrozen } : {}) };
}
