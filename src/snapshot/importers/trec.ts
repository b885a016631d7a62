import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CorpusLine, PartialConfig, QueryRecord, RecordKind } from '../../documents/index.js';
import { RgateError } from '../../core/errors.js';
import { writeFixtureSet } from '../fixture-set.js';
import { DEFAULT_IMPORT_CONFIG } from './beir.js';
import {
  attachQrels,
  countsOf,
  parseTrecQrels,
  provenanceText,
  readSource,
  type ImportResult,
  type SourceFile,
} from './common.js';
import {
  DOCUMENT_EXTENSIONS,
  documentRecord,
  isTarGz,
  readDocumentTree,
  type RawDocument,
} from './documents.js';
import { isTrecSgml, trecSgmlRecords } from './trec-sgml.js';

/** Extensions TREC collection files (`<DOC>` blocks) are shipped under, besides the document ones. */
const SGML_EXTENSIONS = ['.sgml', '.sgm', '.trec'];

export type TopicField = 'title' | 'description' | 'title+description';

export interface TrecImportOptions {
  topics: string;
  qrels: string[];
  /**
   * documents: a directory or .tar.gz of HTML/text files (id = file name without extension), or of
   * TREC collection files (`<DOC><DOCNO>` blocks: id = DOCNO), or one such collection file
   */
  docs?: string;
  out: string;
  /** which `<top>` fields make the query text (default title); `<DOC>`-style topics use their body */
  topicField?: TopicField;
  kind?: RecordKind;
  config?: PartialConfig;
  command?: string;
}

interface Topic {
  num: string;
  title?: string;
  description?: string;
  line: number;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/**
 * Parse TREC topics in either style: `<top> <num> Number: 51 <title> ... <desc> ... </top>` (closing
 * field tags optional) or `<DOC> <DOCNO> 1 </DOCNO> body </DOC>` (CACM, as Anserini ships it).
 */
export function parseTrecTopics(text: string, label: string): Topic[] {
  const out: Topic[] = [];
  const tops = [...text.matchAll(/<top>([\s\S]*?)<\/top>/gi)];
  if (tops.length > 0) {
    for (const m of tops) {
      const body = m[1]!;
      const line = lineAt(text, m.index);
      const field = (tag: string): string | undefined => {
        const f = new RegExp(`<${tag}>([\\s\\S]*?)(?=<\\/?[a-z]+>|$)`, 'i').exec(body);
        return f ? collapse(f[1]!) : undefined;
      };
      const num = field('num')?.replace(/^Number:\s*/i, '');
      if (!num) throw new RgateError('input_invalid', `${label}:${line}: <top> without a <num>`);
      const title = field('title')?.replace(/^Topic:\s*/i, '');
      const description = field('desc')?.replace(/^Description:\s*/i, '');
      out.push({ num, line, ...(title ? { title } : {}), ...(description ? { description } : {}) });
    }
    return out;
  }
  const docs = [...text.matchAll(/<DOC>([\s\S]*?)<\/DOC>/gi)];
  for (const m of docs) {
    const line = lineAt(text, m.index);
    const no = /<DOCNO>([\s\S]*?)<\/DOCNO>/i.exec(m[1]!);
    if (!no || !collapse(no[1]!))
      throw new RgateError('input_invalid', `${label}:${line}: <DOC> without a <DOCNO>`);
    out.push({ num: collapse(no[1]!), line, title: collapse(m[1]!.slice(no.index + no[0].length)) });
  }
  if (out.length === 0)
    throw new RgateError(
      'input_invalid',
      `${label}: no topics found`,
      'expected <top>...</top> or <DOC><DOCNO>...</DOCNO>...</DOC> blocks',
    );
  return out;
}

function topicText(t: Topic, field: TopicField, label: string): string {
  const parts =
    field === 'title'
      ? [t.title ?? t.description]
      : field === 'description'
        ? [t.description]
        : [t.title, t.description];
  const text = parts.filter((p): p is string => !!p).join(' ');
  if (!text) throw new RgateError('input_invalid', `${label}:${t.line}: topic ${t.num} has no ${field} text`);
  return text;
}

/** The documents of `--docs`: a tree or tarball as for `rgate import dir`, or one TREC collection file. */
async function readTrecDocuments(path: string): Promise<Awaited<ReturnType<typeof readDocumentTree>>> {
  let file = false;
  try {
    file = statSync(path).isFile() && !isTarGz(path);
  } catch {
    // readDocumentTree names the missing path
  }
  if (!file) return readDocumentTree(path, [...DOCUMENT_EXTENSIONS, ...SGML_EXTENSIONS]);
  const s = readSource(path);
  if (!isTrecSgml(s.text))
    throw new RgateError(
      'input_invalid',
      `${path}: expected a directory or .tar.gz of documents, or a TREC file of <DOC><DOCNO> blocks`,
    );
  const doc: RawDocument = {
    rel: basename(path),
    bytes: Buffer.from(s.text, 'utf8'),
    mtime: statSync(path).mtime.toISOString(),
  };
  return { docs: [doc], source: s.info };
}

/**
 * Records for TREC documents: a collection file gives one per `<DOC>` block, any other file one
 * (as `rgate import dir` reads it, id without extension). An id given twice is an error naming both.
 */
function trecDocumentRecords(docs: readonly RawDocument[], kind: RecordKind, label: string): CorpusLine[] {
  const seen = new Map<string, string>();
  const out: CorpusLine[] = [];
  for (const d of docs) {
    const sgml = isTrecSgml(d.bytes.toString('utf8').replace(/^\uFEFF/, ''));
    for (const r of sgml ? trecSgmlRecords(d, kind) : [documentRecord(d, kind)]) {
      const prev = seen.get(r.id!);
      if (prev)
        throw new RgateError(
          'input_invalid',
          `${label}: ${d.rel} and ${prev} both give the id "${r.id}"`,
          sgml ? 'DOCNOs must be unique across the collection' : 'rename one of them',
        );
      seen.set(r.id!, d.rel);
      out.push(r);
    }
  }
  return out;
}

/** Import TREC topics + qrels (+ a document tree) into a fixture set folder. Ids are kept exactly as the files write them. */
export async function importTrec(o: TrecImportOptions): Promise<ImportResult> {
  const sources: SourceFile[] = [];
  const notes: string[] = [];
  let corpus: CorpusLine[] = [];
  if (o.docs) {
    const { docs, source } = await readTrecDocuments(o.docs);
    sources.push(source);
    corpus = trecDocumentRecords(docs, o.kind ?? 'canonical', basename(o.docs));
    const sgml = docs.filter((d) => isTrecSgml(d.bytes.toString('utf8').replace(/^\uFEFF/, '')));
    if (sgml.length > 0)
      notes.push(
        `Documents: ${sgml.length} TREC collection file(s) of <DOC> blocks: id = <DOCNO>, title = <TITLE>/<HEADLINE>/<HEAD>, text = <TEXT> (else the block), tags stripped.`,
      );
  } else notes.push('No documents given: corpus.jsonl is empty.');

  const t = readSource(o.topics);
  sources.push(t.info);
  const tlabel = basename(o.topics);
  const seen = new Map<string, number>();
  const queries: QueryRecord[] = parseTrecTopics(t.text, tlabel).map((tp) => {
    const prev = seen.get(tp.num);
    if (prev !== undefined)
      throw new RgateError(
        'input_invalid',
        `${tlabel}:${tp.line}: topic ${tp.num} repeats the one on line ${prev}`,
      );
    seen.set(tp.num, tp.line);
    return { query_id: tp.num, text: topicText(tp, o.topicField ?? 'title', tlabel) };
  });
  for (const path of o.qrels) {
    const src = readSource(path);
    sources.push(src.info);
    const judgments = parseTrecQrels(src.text, basename(path));
    attachQrels(queries, judgments);
    const ids = new Set(corpus.map((c) => c.id));
    const missing = new Set(judgments.filter((j) => !ids.has(j.doc_id)).map((j) => j.doc_id));
    notes.push(
      `${basename(path)}: ${judgments.length} judgment lines over ${new Set(judgments.map((j) => j.query_id)).size} queries.`,
    );
    if (corpus.length > 0 && missing.size > 0)
      notes.push(
        `${basename(path)}: ${missing.size} judged doc ids are not in the corpus (kept as written, e.g. ${[...missing].sort().slice(0, 3).join(', ')}).`,
      );
  }
  const r = { counts: countsOf(corpus.length, queries), notes, sources };
  writeFixtureSet(o.out, {
    corpus,
    queries,
    config: o.config ?? DEFAULT_IMPORT_CONFIG,
    provenance: provenanceText('trec', r, o.command),
  });
  return { dir: o.out, ...r };
}
