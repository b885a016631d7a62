import { lstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { list } from 'tar';
import { canonicalJson, compareCodeUnits } from '../../core/canonical-json.js';
import { RgateError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { CorpusLine, RecordKind } from '../../documents/index.js';
import { sourceInfo, type SourceFile } from './common.js';
import { htmlToText, markdownTitle } from './html-text.js';

export const DOCUMENT_EXTENSIONS = ['.txt', '.text', '.md', '.markdown', '.html', '.htm'];

/** One file of a document collection, captured once (bytes, size, mtime) so nothing rereads it. */
export interface RawDocument {
  /** path relative to the collection root, `/`-separated */
  rel: string;
  bytes: Buffer;
  /** ISO-8601 */
  mtime: string;
}

export function isTarGz(path: string): boolean {
  return /\.(tar\.gz|tgz)$/i.test(path);
}

/**
 * Read every document of a directory tree or a .tar.gz (files with one of `extensions`; dot-entries
 * other than the `dotDirs` named (`.cortex`, where a project keeps its decisions) and node_modules
 * skipped), sorted by path. Returns the documents and a source description whose
 * sha256 is the tarball's, or for a directory the sha256 of its sorted `(path, sha256)` listing.
 */
export async function readDocumentTree(
  path: string,
  extensions: readonly string[] = DOCUMENT_EXTENSIONS,
  opts: { followSymlinks?: boolean; dotDirs?: readonly string[] } = {},
): Promise<{ docs: RawDocument[]; source: SourceFile }> {
  const dotDirs = opts.dotDirs ?? [];
  const hidden = (name: string): boolean => name.startsWith('.') && !dotDirs.includes(name);
  const want = (rel: string): boolean =>
    extensions.includes(extname(rel).toLowerCase()) && !rel.split('/').some(hidden);
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new RgateError('file_not_found', `${path}: no such file or directory`);
  }
  const docs: RawDocument[] = [];
  let source: SourceFile;
  if (st.isDirectory()) {
    const realRoot = realpathSync(path);
    walk(path, path, docs, want, opts.followSymlinks ?? false, realRoot, new Set([realRoot]), hidden);
    docs.sort((a, b) => compareCodeUnits(a.rel, b.rel));
    const listing = docs.map((d) => ({ path: d.rel, sha256: sha256(d.bytes) }));
    source = {
      path,
      bytes: docs.reduce((n, d) => n + d.bytes.length, 0),
      sha256: sha256(canonicalJson(listing)),
    };
  } else if (isTarGz(path)) {
    await list({
      file: path,
      onReadEntry(entry) {
        const rel = entry.path.replace(/^\.\//, '');
        if (entry.type !== 'File' || !want(rel)) {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () =>
          docs.push({ rel, bytes: Buffer.concat(chunks), mtime: (entry.mtime ?? new Date(0)).toISOString() }),
        );
      },
    });
    docs.sort((a, b) => compareCodeUnits(a.rel, b.rel));
    source = sourceInfo(path);
  } else {
    throw new RgateError('input_invalid', `${path}: expected a directory or a .tar.gz of documents`);
  }
  return { docs, source };
}

/**
 * Walk a tree without leaving it: a symlink whose target lies outside the root is refused (an
 * outside file would enter the corpus, possibly twice) unless `followSymlinks`; a dangling link and a
 * link loop are errors naming the link. Links inside the root are followed; a directory reached
 * twice (by a link loop) is refused rather than walked again.
 */
function walk(
  root: string,
  dir: string,
  out: RawDocument[],
  want: (rel: string) => boolean,
  follow: boolean,
  realRoot: string,
  onPath: Set<string>,
  hidden: (name: string) => boolean,
): void {
  for (const name of readdirSync(dir).sort(compareCodeUnits)) {
    if (name === 'node_modules' || hidden(name)) continue;
    const p = join(dir, name);
    const rel = relative(root, p).split(sep).join('/');
    let st = lstatSync(p);
    if (st.isSymbolicLink()) {
      const target = readlinkSync(p);
      let real: string;
      try {
        real = realpathSync(p);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP')
          throw new RgateError(
            'input_invalid',
            `${p}: symlink loop (${rel} -> ${target})`,
            'remove or fix the link',
          );
        throw new RgateError(
          'input_invalid',
          `${p}: dangling symlink (${rel} -> ${target} does not exist)`,
          'remove the link, or point it at an existing file inside the tree',
        );
      }
      const inside = real === realRoot || real.startsWith(realRoot + sep);
      if (!inside && !follow)
        throw new RgateError(
          'input_invalid',
          `${p}: symlink out of the tree (${rel} -> ${real})`,
          'import stays inside its root; pass --follow-symlinks to take linked files from outside it',
        );
      st = statSync(p);
      if (st.isDirectory() && onPath.has(real))
        throw new RgateError(
          'input_invalid',
          `${p}: symlink loop (${rel} -> ${target} leads back to ${real})`,
          'remove or fix the link',
        );
    }
    if (st.isDirectory()) {
      const real = realpathSync(p);
      onPath.add(real);
      walk(root, p, out, want, follow, realRoot, onPath, hidden);
      onPath.delete(real);
    } else if (st.isFile()) {
      if (want(rel)) out.push({ rel, bytes: readFileSync(p), mtime: st.mtime.toISOString() });
    }
  }
}

/**
 * A document as a corpus record: id = relative path without extension (with it when `keepExtension`:
 * `rgate import dir`, whose ids are the paths systems answer with), text by type (HTML: `<pre>`
 * or tag-stripped text; Markdown/text: as is), `captured_at` = the file's mtime, and `source`
 * {sha256, size, mtime} so a replay can prove what it saw without reading the live tree.
 */
export function documentRecord(d: RawDocument, kind: RecordKind, keepExtension = false): CorpusLine {
  const ext = extname(d.rel).toLowerCase();
  const id = keepExtension ? d.rel : d.rel.slice(0, d.rel.length - ext.length);
  const raw = d.bytes.toString('utf8').replace(/^\uFEFF/, '');
  let title: string | undefined;
  let text: string;
  if (ext === '.html' || ext === '.htm') ({ title, text } = htmlToText(raw));
  else {
    text = raw;
    if (ext === '.md' || ext === '.markdown') title = markdownTitle(raw);
  }
  return {
    id,
    source_path: d.rel,
    ...(title ? { title } : {}),
    text,
    kind,
    captured_at: d.mtime,
    source: { sha256: sha256(d.bytes), size: d.bytes.length, mtime: d.mtime },
  };
}

/** Records for a whole tree; two files mapping to one id (a.md and a.txt) is an error. */
export function documentRecords(
  docs: readonly RawDocument[],
  kind: RecordKind,
  label: string,
  keepExtension = false,
): CorpusLine[] {
  const seen = new Map<string, string>();
  return docs.map((d) => {
    const r = documentRecord(d, kind, keepExtension);
    const prev = seen.get(r.id!);
    if (prev)
      throw new RgateError(
        'input_invalid',
        `${label}: ${d.rel} and ${prev} both give the id "${r.id}"`,
        'rename one of them',
      );
    seen.set(r.id!, d.rel);
    return r;
  });
}
