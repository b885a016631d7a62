/**
 * Fallback probes derived from a corpus (`rgate probes add`): query records whose expectation is a
 * fallback answer, so a suite whose ordinary queries never fall back still gathers fallback evidence
 * (fallback_determinism, fallback_expectation_met). Probes are ordinary query records in the shape
 * DESIGN.md gives them (`expect.selection_mode` a fallback mode, or `expect.no_match`), tagged `probe`,
 * their kind, and GENERATED_PROBE_TAG so a later run replaces them instead of piling up.
 * Pure and seeded: the same corpus, count and seed give the same probes, byte for byte.
 */
import { compareCodeUnits } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { createPrng, deriveSeed, shuffled } from '../core/prng.js';
import type { CorpusRecord, QueryRecord } from '../documents/index.js';

/** Marks the probes this module wrote (hand-written probes never carry it and are never touched). */
export const GENERATED_PROBE_TAG = 'generated:rgate-probes';

export interface ProbeOptions {
  /** probes per kind */
  count: number;
  seed: number;
}

export interface DerivedProbes {
  probes: QueryRecord[];
  /** what could not be derived and why (no directories, fewer records than asked...) */
  notes: string[];
}

const byId = (a: CorpusRecord, b: CorpusRecord) => compareCodeUnits(a.id, b.id);
const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Every word the corpus holds anywhere a retriever could match it (text, title, id, path, key, tags). */
function vocabulary(corpus: readonly CorpusRecord[]): Set<string> {
  const vocab = new Set<string>();
  for (const r of corpus) {
    for (const part of [r.id, r.source_path, r.title ?? '', r.text, r.key ?? '', ...(r.tags ?? [])])
      for (const w of words(part)) vocab.add(w);
  }
  return vocab;
}

function sample<T>(items: readonly T[], n: number, seed: number, label: string): T[] {
  return shuffled(items, createPrng(deriveSeed(seed, label))).slice(0, n);
}

const pad = (i: number) => String(i + 1).padStart(3, '0');

/** Exact-key probes: a record's `key` (or its id when the corpus has no keys) asked verbatim. */
function exactKeyProbes(corpus: CorpusRecord[], o: ProbeOptions, notes: string[]): QueryRecord[] {
  const keyed = corpus.filter((r) => r.key !== undefined);
  const pool = keyed.length > 0 ? keyed : corpus;
  if (keyed.length === 0 && corpus.length > 0)
    notes.push('no record has a key: exact-key probes ask for record ids');
  return sample(pool, o.count, o.seed, 'exact-key').map((r, i) => {
    const key = r.key ?? r.id;
    return {
      query_id: `probe-exact-key-${pad(i)}`,
      text: key,
      exact_key: key,
      tags: ['probe', 'exact-key', GENERATED_PROBE_TAG],
      useful_ids: [r.id],
      useful_paths: [r.source_path],
      expect: { selection_mode: 'fallback_exact_key' },
    };
  });
}

const CONSONANTS = 'bcdfghjklmnpqrstvwxz';
const VOWELS = 'aeiouy';

/** A pronounceable non-word the corpus does not contain (seeded), e.g. "vuqoxe". */
function absentWord(prng: ReturnType<typeof createPrng>, vocab: Set<string>, used: Set<string>): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    let w = '';
    for (let i = 0; i < 6; i++) w += i % 2 === 0 ? CONSONANTS[prng.int(20)] : VOWELS[prng.int(6)];
    if (!vocab.has(w) && !used.has(w)) {
      used.add(w);
      return w;
    }
  }
  throw new RgateError('internal', 'could not find a word absent from the corpus in 1000 tries');
}

/** No-match probes: two words that occur nowhere in the corpus; the right answer is no answer. */
function noMatchProbes(corpus: CorpusRecord[], o: ProbeOptions): QueryRecord[] {
  const vocab = vocabulary(corpus);
  const prng = createPrng(deriveSeed(o.seed, 'no-match'));
  const used = new Set<string>();
  return Array.from({ length: o.count }, (_, i) => ({
    query_id: `probe-no-match-${pad(i)}`,
    text: `${absentWord(prng, vocab, used)} ${absentWord(prng, vocab, used)}`,
    tags: ['probe', 'no-match', GENERATED_PROBE_TAG],
    expect: { no_match: true },
  }));
}

/**
 * Path-priority probes: a folder of the corpus asked by its path ("docs/runbooks"). Where records
 * carry `path_priority`, the expected record is the folder's highest (ties by id), as seed 001's
 * path-priority fallback picks it; otherwise only the mode is expected.
 */
function pathPriorityProbes(corpus: CorpusRecord[], o: ProbeOptions, notes: string[]): QueryRecord[] {
  const folders = new Map<string, CorpusRecord[]>();
  for (const r of corpus) {
    const slash = r.source_path.lastIndexOf('/');
    if (slash <= 0) continue;
    const dir = r.source_path.slice(0, slash);
    folders.set(dir, [...(folders.get(dir) ?? []), r]);
  }
  const dirs = [...folders.keys()].sort(compareCodeUnits);
  if (dirs.length === 0) {
    notes.push('no record path has a folder: no path-priority probes');
    return [];
  }
  if (dirs.length < o.count)
    notes.push(`${dirs.length} folder(s) in the corpus: ${dirs.length} path-priority probe(s)`);
  return sample(dirs, o.count, o.seed, 'path-priority').map((dir, i) => {
    const ranked = folders
      .get(dir)!
      .filter((r) => r.path_priority !== undefined)
      .sort((a, b) => b.path_priority! - a.path_priority! || byId(a, b));
    const top = ranked[0];
    return {
      query_id: `probe-path-priority-${pad(i)}`,
      text: dir,
      tags: ['probe', 'path-priority', GENERATED_PROBE_TAG],
      ...(top ? { useful_ids: [top.id], useful_paths: [top.source_path] } : {}),
      expect: { selection_mode: 'fallback_path_priority' },
    };
  });
}

/** Derive exact-key, no-match and path-priority probes (in that order). */
export function deriveProbes(corpus: readonly CorpusRecord[], o: ProbeOptions): DerivedProbes {
  if (!Number.isInteger(o.count) || o.count < 1)
    throw new RgateError('usage', `--count ${o.count}: must be a whole number >= 1`);
  if (corpus.length === 0)
    throw new RgateError('input_invalid', 'the corpus is empty: there is nothing to derive probes from');
  const sorted = [...corpus].sort(byId);
  const notes: string[] = [];
  if (sorted.length < o.count) notes.push(`${sorted.length} record(s): ${sorted.length} exact-key probe(s)`);
  const probes = [
    ...exactKeyProbes(sorted, o, notes),
    ...noMatchProbes(sorted, o),
    ...pathPriorityProbes(sorted, o, notes),
  ];
  return { probes, notes };
}

/** Is this a probe a previous `rgate probes add` wrote? */
export function isGeneratedProbe(q: QueryRecord): boolean {
  return q.tags?.includes(GENERATED_PROBE_TAG) === true;
}
