import { basename } from 'node:path';
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
  const tree = await readDocumentTree(o.path, exts, { followSymlinks: o.followSymlinks ?? false });
  sources.push(tree.source);
  const corpus = documentRecords(tree.docs, o.kind ?? 'canonical', basename(o.path));
  notes.push(
    `Documents with extensions ${exts.join(' ')}; id = relative path without extension; captured_at = file mtime; source = {sha256, size, mtime}.`,
  );
  let queries: QueryRecord[] = [];
  if (o.queries) {
    queries = readQueryLines(o.queries, sources);
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
