import { basename } from 'node:path';
import { RgateError } from '../../core/errors.js';
import type { PartialConfig, QueryRecord, RecordKind } from '../../documents/index.js';
import { writeFixtureSet } from '../fixture-set.js';
import { countsOf, provenanceText, readQueryLines, type ImportResult, type SourceFile } from './common.js';
import { DOCUMENT_EXTENSIONS, documentRecords, readDocumentTree } from './documents.js';

export interface DirImportOptions {
  /** a directory (a `project_dir`) or a .tar.gz of documents */
  path: string;
  out: string;
  /** an rgate queries.jsonl to copy in (validated); default none */
  queries?: string;
  kind?: RecordKind;
  extensions?: string[];
  /** take symlinked files from outside the tree too (default: refuse them) */
  followSymlinks?: boolean;
  /** dot-directories to take anyway (`.cortex`); every other dot-entry is skipped */
  dotDirs?: string[];
  /** keep judgments on ids the corpus does not have, with a note (default: refuse the import) */
  keepUnknownJudgments?: boolean;
  config?: PartialConfig;
  command?: string;
}

/**
 * Snapshot a document tree (`project_dir`) or tarball into a fixture set: every document's path,
 * sha256, size and mtime are captured once into corpus.jsonl, so replays never read the live tree.
 */
export async function importDir(o: DirImportOptions): Promise<ImportResult> {
  const sources: SourceFile[] = [];
  const notes: string[] = [];
  const exts = o.extensions ?? DOCUMENT_EXTENSIONS;
  const tree = await readDocumentTree(o.path, exts, {
    followSymlinks: o.followSymlinks ?? false,
    ...(o.dotDirs ? { dotDirs: o.dotDirs } : {}),
  });
  sources.push(tree.source);
  // ids keep their extension: they are the paths a system answers with (cortex-coach `specs/x.md`)
  const corpus = documentRecords(tree.docs, o.kind ?? 'canonical', basename(o.path), true);
  notes.push(
    `Documents with extensions ${exts.join(' ')}; id = relative path with its extension; captured_at = file mtime; source = {sha256, size, mtime}.`,
  );
  let queries: QueryRecord[] = [];
  if (o.queries) {
    queries = readQueryLines(o.queries, sources);
    const unknown = unknownJudgments(
      queries,
      new Set(corpus.map((r) => r.id!)),
      new Set(corpus.map((r) => r.source_path)),
    );
    if (unknown.count > 0) {
      const on = [
        ...(unknown.ids.length ? [`${unknown.ids.length} id(s)`] : []),
        ...(unknown.paths.length ? [`${unknown.paths.length} source path(s)`] : []),
      ].join(' and ');
      const examples = [...unknown.ids, ...unknown.paths].slice(0, 3).join(', ');
      const what = `${basename(o.queries)}: ${unknown.count} judgment(s) on ${on} not in the corpus (e.g. ${examples})`;
      if (!o.keepUnknownJudgments)
        throw new RgateError(
          'input_invalid',
          what,
          'ids are paths relative to the tree, with their extension (specs/x.md); fix the ids, or keep them with --keep-unknown-judgments',
        );
      notes.push(
        `warning: ${what}; kept (--keep-unknown-judgments): they count as relevant documents no system can return.`,
      );
    }
  } else notes.push('No queries given: queries.jsonl is empty; add judged queries before gating.');
  const r = { counts: countsOf(corpus.length, queries), notes, sources };
  writeFixtureSet(o.out, {
    corpus,
    queries,
    config: o.config ?? { mode: 'context-load' },
    provenance: provenanceText('dir', r, o.command),
  });
  return { dir: o.out, ...r };
}

/**
 * Judgments on what the corpus lacks: qrels entries and useful_ids naming no record id, useful_paths
 * naming no record's source_path. Their count, and the ids and paths, each sorted.
 */
function unknownJudgments(
  queries: readonly QueryRecord[],
  ids: ReadonlySet<string>,
  paths: ReadonlySet<string | undefined>,
): { count: number; ids: string[]; paths: string[] } {
  let count = 0;
  const missingIds = new Set<string>();
  const missingPaths = new Set<string>();
  for (const q of queries) {
    for (const id of [...Object.keys(q.qrels ?? {}), ...(q.useful_ids ?? [])])
      if (!ids.has(id)) {
        count++;
        missingIds.add(id);
      }
    for (const path of q.useful_paths ?? [])
      if (!paths.has(path)) {
        count++;
        missingPaths.add(path);
      }
  }
  return { count, ids: [...missingIds].sort(), paths: [...missingPaths].sort() };
}
