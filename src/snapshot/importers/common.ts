import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { compareCodeUnits } from '../../core/canonical-json.js';
import { RgateError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import { assertUtf8 } from '../../core/utf8.js';
import type { ImportOutput, QueryRecord } from '../../documents/index.js';
import { parseJsonl } from '../../core/jsonl.js';
import { validateOrThrow } from '../../contracts/ajv.js';
import { validateQueryLine } from '../../contracts/query-set.js';

/** What an importer did: the folder it wrote, counts, and notes worth reading (dropped lines, gaps). */
export type ImportResult = Omit<ImportOutput, 'freeze'>;

export type SourceFile = ImportOutput['sources'][number];

export function readSource(path: string): { text: string; info: SourceFile } {
  let buf: Buffer;
  try {
    if (statSync(path).isDirectory())
      throw new RgateError('input_invalid', `${path}: is a directory, expected a file`);
    buf = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new RgateError('file_not_found', `${path}: no such file`);
    throw e;
  }
  assertUtf8(buf, path);
  return { text: decodeUtf8(buf), info: sourceInfo(path, buf) };
}

export function sourceInfo(path: string, buf: Buffer = readFileSync(path)): SourceFile {
  return { path, bytes: buf.length, sha256: sha256(buf) };
}

function decodeUtf8(buf: Buffer): string {
  const t = buf.toString('utf8');
  return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
}

/** Lines with 1-based numbers; CR of CRLF removed. */
export function lines(text: string): { line: number; text: string }[] {
  return text.split('\n').map((t, i) => ({ line: i + 1, text: t.endsWith('\r') ? t.slice(0, -1) : t }));
}

export interface Judgment {
  query_id: string;
  doc_id: string;
  grade: number;
  /** `file:line`, for error messages */
  where: string;
}

function parseGrade(s: string, where: string): number {
  if (!/^[+-]?\d+$/.test(s))
    throw new RgateError(
      'input_invalid',
      `${where}: relevance "${s}" must be an integer`,
      'qrels grades are integers',
    );
  return Number(s);
}

/** TREC qrels: `qid iter doc rel` (iter is usually 0 or Q0 and is ignored). */
export function parseTrecQrels(text: string, label: string): Judgment[] {
  const out: Judgment[] = [];
  for (const l of lines(text)) {
    const f = l.text.trim().split(/\s+/);
    if (f.length === 1 && f[0] === '') continue;
    const where = `${label}:${l.line}`;
    if (f.length !== 4)
      throw new RgateError(
        'input_invalid',
        `${where}: expected 4 columns "qid iter docno rel", got ${f.length}`,
        'TREC qrels: `1 0 doc-7 1`',
      );
    out.push({ query_id: f[0]!, doc_id: f[2]!, grade: parseGrade(f[3]!, where), where });
  }
  return out;
}

/** BEIR qrels TSV: a header `query-id corpus-id score`, then one judgment per row (CRLF accepted). */
export function parseBeirQrels(text: string, label: string): Judgment[] {
  const out: Judgment[] = [];
  let header = true;
  for (const l of lines(text)) {
    if (l.text.trim() === '') continue;
    const f = l.text.split('\t').map((s) => s.trim());
    const where = `${label}:${l.line}`;
    if (header) {
      header = false;
      if (f[0] === 'query-id' || f[0] === 'query_id' || f[0] === 'qid') continue;
      throw new RgateError(
        'input_invalid',
        `${where}: expected the header "query-id<TAB>corpus-id<TAB>score"`,
        'BEIR qrels TSVs start with a header row',
      );
    }
    if (f.length !== 3)
      throw new RgateError('input_invalid', `${where}: expected 3 TAB-separated columns, got ${f.length}`);
    out.push({ query_id: f[0]!, doc_id: f[1]!, grade: parseGrade(f[2]!, where), where });
  }
  return out;
}

/**
 * Attach judgments to queries as `qrels`. A judgment for an unknown query, or two different grades
 * for the same (query, doc), is an error naming the line; an exact repeat is ignored.
 * Returns the queries (input order) and notes.
 */
export function attachQrels(queries: QueryRecord[], judgments: readonly Judgment[]): QueryRecord[] {
  const byId = new Map<string, QueryRecord>();
  for (const q of queries) byId.set(q.query_id, q);
  const firstSeen = new Map<string, Judgment>();
  for (const j of judgments) {
    const q = byId.get(j.query_id);
    if (!q)
      throw new RgateError(
        'input_invalid',
        `${j.where}: judgment for query "${j.query_id}", which is not in the query file`,
        'check that the qrels belong to these topics (and whether query ids are positional)',
      );
    const key = `${j.query_id}\u0000${j.doc_id}`;
    const prev = firstSeen.get(key);
    if (prev) {
      if (prev.grade !== j.grade)
        throw new RgateError(
          'input_invalid',
          `${j.where}: query "${j.query_id}" doc "${j.doc_id}" judged ${j.grade}, but ${prev.where} says ${prev.grade}`,
        );
      continue;
    }
    firstSeen.set(key, j);
    q.qrels = { ...(q.qrels ?? {}), [j.doc_id]: j.grade };
  }
  // qrels keys in code-unit order so files are stable whatever the source order
  for (const q of queries)
    if (q.qrels)
      q.qrels = Object.fromEntries(Object.entries(q.qrels).sort((a, b) => compareCodeUnits(a[0], b[0])));
  return queries;
}

export function countsOf(corpus: number, queries: readonly QueryRecord[]): ImportResult['counts'] {
  let judged = 0;
  let judgments = 0;
  for (const q of queries) {
    const n = q.qrels ? Object.keys(q.qrels).length : 0;
    if (n) judged++;
    judgments += n;
  }
  return { corpus_records: corpus, queries: queries.length, judged_queries: judged, judgments };
}

/** The generated part of PROVENANCE.md: sources with sha256, counts, notes and the command. */
export function provenanceText(
  kind: string,
  r: Omit<ImportResult, 'dir'>,
  command: string | undefined,
): string {
  const rows = r.sources.map((s) => `| \`${basename(s.path)}\` | ${s.bytes} | \`${s.sha256}\` |`);
  return [
    `## Import (${kind})`,
    '',
    '| source | bytes | sha256 |',
    '| --- | ---: | --- |',
    ...rows,
    '',
    `Counts: ${r.counts.corpus_records} corpus records, ${r.counts.queries} queries, ${r.counts.judged_queries} judged queries, ${r.counts.judgments} judgments.`,
    ...(r.notes.length ? ['', 'Notes:', ...r.notes.map((n) => `- ${n}`)] : []),
    ...(command ? ['', 'Produced by:', '', '```sh', command, '```'] : []),
  ].join('\n');
}

/** A `--queries` JSONL file of query records, each line validated (file and line named); its source recorded. */
export function readQueryLines(path: string, sources: SourceFile[]): QueryRecord[] {
  const src = readSource(path);
  sources.push(src.info);
  const label = basename(path);
  return parseJsonl(src.text, label).map((l) =>
    validateOrThrow(validateQueryLine, l.value, { file: label, line: l.line }),
  );
}
