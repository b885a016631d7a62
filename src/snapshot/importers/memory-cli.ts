/**
 * A memory root of AthenaMind's `memory-cli` (github MattMatheus/AthenaMind, read at commit
 * bd114922822ae0b7659932cafa8d57972db5de8d) as a fixture set whose ids and source paths are the
 * CLI's own, so judgments written against its answers line up without a hand-made corpus.
 *
 * The root's layout, from its Go code (internal/index, internal/types, internal/retrieval):
 * - `index.yaml`: `{schema_version, updated_at, entries: [{id, type, domain, path, metadata_path,
 *   status, updated_at, title}]}`. The CLI writes it with json.MarshalIndent (WriteJSONAsYAML) and
 *   reads it with json.Unmarshal, so the file is JSON, and a YAML-only spelling is refused by the CLI
 *   too. It is read here as JSON, strictly, with the line and column of a mistake.
 * - `path` (`instructions/<domain>/<id>.md`, `prompts/...`, `episodes/...`): the entry's Markdown,
 *   `# <title>\n\n<body>\n`; the CLI scores this text, and answers with `source_path` = `path`.
 * - `metadata_path` (`metadata/<id>.yaml`, JSON as well): `{schema_version, id, title, status,
 *   updated_at, review: {...}}`; its id must equal the entry's.
 * - `index.db` (SQLite, the CLI's primary store; index.yaml mirrors it), `audits/`, `telemetry/`:
 *   not part of the corpus, not read.
 * Only `approved` entries are retrieval candidates in the CLI (loadCandidatesBase), so only they
 * become records; the others are counted in a note.
 */
import { isAbsolute, join, normalize, sep } from 'node:path';
import { RgateError } from '../../core/errors.js';
import type { CorpusRecord, PartialConfig, QueryRecord } from '../../documents/index.js';
import { writeFixtureSet } from '../fixture-set.js';
import {
  countsOf,
  provenanceText,
  readQueryLines,
  readSource,
  type ImportResult,
  type SourceFile,
} from './common.js';
import { findJsonProblem } from './strict-json.js';

export interface MemoryCliImportOptions {
  /** the memory root (the CLI's `--root`): holds index.yaml */
  root: string;
  out: string;
  /** keep only this domain (the CLI's `--domain`) */
  domain?: string;
  /** an rgate queries.jsonl to copy in (validated); default none */
  queries?: string;
  config?: PartialConfig;
  command?: string;
}

interface IndexEntry {
  id: string;
  type: string;
  domain: string;
  path: string;
  metadata_path: string;
  status: string;
  updated_at: string;
  title?: string;
}

const REQUIRED = ['id', 'type', 'domain', 'path', 'metadata_path', 'status', 'updated_at'] as const;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** the folder each entry type lives in (index.ValidateIndex) */
const TYPE_DIRS: Record<string, string> = {
  prompt: 'prompts/',
  instruction: 'instructions/',
  episode: 'episodes/',
};

/** 1-based line and column of a character offset. */
function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, col: offset - before.lastIndexOf('\n') };
}

/** Parse a root file as the CLI does (JSON), or say where it is not (line:column and why). */
function parseRootJson(text: string, label: string): unknown {
  const problem = findJsonProblem(text);
  if (problem) {
    const { line, col } = lineCol(text, problem.offset);
    throw new RgateError(
      'input_invalid',
      `${label}:${line}:${col}: not the JSON memory-cli writes (${problem.reason})`,
      'memory-cli writes its .yaml files as JSON (json.MarshalIndent) and reads them with a JSON parser; a YAML-only spelling is refused by the CLI as well',
    );
  }
  return JSON.parse(text);
}

/** The line where an entry's `"id": "<id>"` stands, for messages about that entry. */
function entryLine(text: string, id: unknown): number | undefined {
  if (typeof id !== 'string') return undefined;
  const m = new RegExp(`"id"\\s*:\\s*${JSON.stringify(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(
    text,
  );
  return m ? lineCol(text, m.index).line : undefined;
}

/** A path from the index, inside the root (no `..`, not absolute), as a file path. */
function inside(root: string, rel: string, where: string): string {
  const n = normalize(rel);
  if (isAbsolute(rel) || n === '..' || n.startsWith(`..${sep}`)) {
    throw new RgateError('input_invalid', `${where}: "${rel}" points outside the memory root`);
  }
  return join(root, n);
}

function readIndex(root: string, sources: SourceFile[]): IndexEntry[] {
  const src = readSource(join(root, 'index.yaml'));
  sources.push(src.info);
  const label = 'index.yaml';
  const doc = parseRootJson(src.text, label);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new RgateError(
      'input_invalid',
      `${label}: expected an object {schema_version, updated_at, entries}`,
    );
  const { schema_version: version, entries } = doc as Record<string, unknown>;
  if (typeof version !== 'string' || !/^1\.\d+$/.test(version.trim())) {
    throw new RgateError(
      'input_invalid',
      `${label} /schema_version: ${JSON.stringify(version ?? null)} is not a 1.x schema version`,
      'this importer reads the memory root layout of memory-cli schema 1.x',
    );
  }
  if (!Array.isArray(entries)) throw new RgateError('input_invalid', `${label} /entries: must be an array`);
  const seen = new Map<string, number>();
  return entries.map((raw, i) => {
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const line = entryLine(src.text, e['id']);
    const where = `${label}${line ? `:${line}` : ''} /entries/${i}`;
    for (const k of REQUIRED) {
      if (typeof e[k] !== 'string' || (e[k] as string).trim() === '')
        throw new RgateError('input_invalid', `${where}/${k}: must be a non-empty string`);
    }
    const entry = e as unknown as IndexEntry;
    if (seen.has(entry.id))
      throw new RgateError(
        'input_invalid',
        `${where}/id: "${entry.id}" also at /entries/${seen.get(entry.id)}`,
      );
    seen.set(entry.id, i);
    const dir = TYPE_DIRS[entry.type];
    if (!dir) throw new RgateError('input_invalid', `${where}/type: must be prompt, instruction or episode`);
    if (!entry.path.startsWith(dir))
      throw new RgateError('input_invalid', `${where}/path: a ${entry.type} lives under ${dir}`);
    if (!entry.metadata_path.startsWith('metadata/'))
      throw new RgateError('input_invalid', `${where}/metadata_path: must be under metadata/`);
    if (!RFC3339.test(entry.updated_at))
      throw new RgateError(
        'input_invalid',
        `${where}/updated_at: "${entry.updated_at}" is not an RFC 3339 time`,
      );
    return entry;
  });
}

function readMetadataTitle(root: string, e: IndexEntry, sources: SourceFile[]): string | undefined {
  const path = inside(root, e.metadata_path, `index.yaml /entries (${e.id}) metadata_path`);
  const src = readSource(path);
  sources.push(src.info);
  const meta = parseRootJson(src.text, e.metadata_path) as Record<string, unknown>;
  if (meta === null || typeof meta !== 'object' || meta['id'] !== e.id) {
    throw new RgateError(
      'input_invalid',
      `${e.metadata_path} /id: ${JSON.stringify((meta as Record<string, unknown> | null)?.['id'] ?? null)} does not match the entry id "${e.id}"`,
      'memory-cli skips such an entry (ERR_SCHEMA_VALIDATION); fix the root before importing it',
    );
  }
  return typeof meta['title'] === 'string' && meta['title'] !== '' ? meta['title'] : undefined;
}

export function importMemoryCli(o: MemoryCliImportOptions): ImportResult {
  const sources: SourceFile[] = [];
  const notes: string[] = [];
  const entries = readIndex(o.root, sources);
  const approved = entries.filter((e) => e.status === 'approved');
  const picked = approved.filter((e) => o.domain === undefined || e.domain === o.domain);
  if (approved.length < entries.length)
    notes.push(
      `${entries.length - approved.length} of ${entries.length} entries not approved (memory-cli never retrieves them): left out`,
    );
  if (o.domain !== undefined)
    notes.push(`domain ${o.domain} only: ${picked.length} of ${approved.length} approved entries`);
  if (picked.length === 0)
    throw new RgateError(
      'input_invalid',
      `${o.root}: no approved entries${o.domain !== undefined ? ` in domain ${o.domain}` : ''} in index.yaml`,
    );
  const corpus: CorpusRecord[] = picked
    .map((e) => {
      const title = e.title || readMetadataTitle(o.root, e, sources) || e.id;
      if (e.title) readMetadataTitle(o.root, e, sources); // checked either way, as the CLI does
      const content = readSource(inside(o.root, e.path, `index.yaml /entries (${e.id}) path`));
      sources.push(content.info);
      const text = content.text;
      return {
        id: e.id,
        source_path: e.path,
        title,
        text,
        kind: 'canonical' as const,
        captured_at: e.updated_at,
        tags: [`type:${e.type}`, `domain:${e.domain}`],
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  notes.push(
    'Records from the memory root: id = entry id, source_path = entry path (what memory-cli answers), text = the entry Markdown as the CLI reads it, captured_at = entry updated_at, tags type:/domain:.',
  );
  let queries: QueryRecord[] = [];
  if (o.queries) {
    queries = readQueryLines(o.queries, sources);
  } else
    notes.push(
      'No queries given: queries.jsonl is empty; add judged queries, and fallback probes with rgate probes add.',
    );
  const r = { counts: countsOf(corpus.length, queries), notes, sources };
  writeFixtureSet(o.out, {
    corpus,
    queries,
    config: o.config ?? { mode: 'semantic', k: 5 },
    provenance: provenanceText('memory-cli', r, o.command),
  });
  return { dir: o.out, ...r };
}
