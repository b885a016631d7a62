import { basename } from 'node:path';
import type { CorpusLine, PartialConfig, QueryRecord } from '../../documents/index.js';
import { RgateError } from '../../core/errors.js';
import { writeFixtureSet } from '../fixture-set.js';
import { DEFAULT_IMPORT_CONFIG } from './beir.js';
import {
  attachQrels,
  countsOf,
  lines,
  provenanceText,
  readSource,
  type ImportResult,
  type Judgment,
  type SourceFile,
} from './common.js';

/** One `.I` record of a SMART tagged file: its id as written and its fields (`T`, `A`, `B`, `W`, ...). */
export interface SmartRecord {
  id: string;
  line: number;
  fields: Record<string, string>;
}

/**
 * Parse SMART tagged text: a record starts at `.I <id>`; a field marker (`.T`, `.A`, `.B`, `.W`, `.X`,
 * ...) sits alone on its line and the field runs to the next marker. CRLF accepted; text before the
 * first `.I` is an error naming the line.
 */
export function parseSmart(text: string, label: string): SmartRecord[] {
  const out: SmartRecord[] = [];
  let cur: SmartRecord | undefined;
  let field: string | undefined;
  let buf: string[] = [];
  const flush = (): void => {
    if (cur && field !== undefined) {
      const prev = cur.fields[field];
      const value = buf.join('\n').trim();
      cur.fields[field] = prev ? `${prev}\n${value}` : value;
    }
    buf = [];
  };
  for (const l of lines(text)) {
    const s = l.text.trimEnd();
    const id = /^\.I\s+(\S+)\s*$/.exec(s);
    if (id) {
      flush();
      field = undefined;
      cur = { id: id[1]!, line: l.line, fields: {} };
      out.push(cur);
      continue;
    }
    if (/^\.I\s*$/.test(s)) throw new RgateError('input_invalid', `${label}:${l.line}: .I without an id`);
    const marker = /^\.([A-Z])$/.exec(s);
    if (marker) {
      flush();
      if (!cur)
        throw new RgateError(
          'input_invalid',
          `${label}:${l.line}: field .${marker[1]} before the first .I record`,
        );
      field = marker[1]!;
      continue;
    }
    if (!cur || field === undefined) {
      if (s.trim() === '') continue;
      throw new RgateError(
        'input_invalid',
        `${label}:${l.line}: text outside a field (expected .I <id> or a field marker like .W)`,
      );
    }
    buf.push(l.text);
  }
  flush();
  const seen = new Map<string, number>();
  for (const r of out) {
    const prev = seen.get(r.id);
    if (prev !== undefined)
      throw new RgateError(
        'input_invalid',
        `${label}:${r.line}: .I ${r.id} repeats the record on line ${prev}`,
      );
    seen.set(r.id, r.line);
  }
  return out;
}

/**
 * SMART-collection qrels. 3 columns `query doc code` (Cranfield); 4 columns either TREC
 * `query iter doc rel` or CISI-style `query doc 0 0.000000` (a float last column: grade 1).
 */
export function parseSmartQrels(text: string, label: string): Judgment[] {
  const out: Judgment[] = [];
  for (const l of lines(text)) {
    const f = l.text.trim().split(/\s+/);
    if (f.length === 1 && f[0] === '') continue;
    const where = `${label}:${l.line}`;
    let q: string, d: string, g: string;
    if (f.length === 3) [q, d, g] = f as [string, string, string];
    else if (f.length === 4 && /\./.test(f[3]!)) [q, d, g] = [f[0]!, f[1]!, '1'];
    else if (f.length === 4) [q, , d, g] = f as [string, string, string, string];
    else
      throw new RgateError(
        'input_invalid',
        `${where}: expected "query doc code" (3 columns), got ${f.length} columns`,
      );
    if (!/^[+-]?\d+$/.test(g))
      throw new RgateError('input_invalid', `${where}: relevance code "${g}" must be an integer`);
    out.push({ query_id: q, doc_id: d, grade: Number(g), where });
  }
  return out;
}

export interface SmartImportOptions {
  docs?: string;
  queries: string;
  qrels?: string;
  out: string;
  /** qrels query n is the n-th `.I` record of the query file (Cranfield), not `.I n` */
  positionalQueryIds?: boolean;
  /** reversed codes (1 = most relevant): grade = max + 1 - code; 'max' takes the largest positive code seen */
  reverseGrades?: number | 'max';
  /** negative codes (Cranfield's undocumented -1): drop the line (default) or keep it as grade 0 */
  negative?: 'drop' | 'zero';
  config?: PartialConfig;
  command?: string;
}

/** Import a SMART collection (Cranfield, CISI, MED, CACM `.I/.T/.A/.B/.W`) into a fixture set folder. */
export function importSmart(o: SmartImportOptions): ImportResult {
  const sources: SourceFile[] = [];
  const notes: string[] = [];
  const corpus: CorpusLine[] = [];
  if (o.docs) {
    const src = readSource(o.docs);
    sources.push(src.info);
    for (const r of parseSmart(src.text, basename(o.docs))) {
      const title = r.fields['T'];
      corpus.push({ id: r.id, ...(title ? { title } : {}), text: r.fields['W'] ?? '' });
    }
    const empty = corpus.filter((c) => c.text === '').map((c) => c.id);
    notes.push(
      'Documents: title = .T, text = .W (abstract); .A (authors) and .B (bibliography) are not imported.',
    );
    if (empty.length) notes.push(`Documents with an empty .W: ${empty.join(', ')}.`);
  } else notes.push('No documents given: corpus.jsonl is empty.');

  const qsrc = readSource(o.queries);
  sources.push(qsrc.info);
  const qlabel = basename(o.queries);
  const queries: QueryRecord[] = parseSmart(qsrc.text, qlabel).map((r) => {
    const text = (r.fields['W'] ?? r.fields['T'] ?? '').replace(/\s+/g, ' ').trim();
    if (!text) throw new RgateError('input_invalid', `${qlabel}:${r.line}: query .I ${r.id} has no .W text`);
    return { query_id: r.id, text };
  });
  notes.push(
    'Query ids are the .I values exactly as written in the query file; query text = .W, whitespace collapsed.',
  );

  if (o.qrels) {
    const src = readSource(o.qrels);
    sources.push(src.info);
    const label = basename(o.qrels);
    let judgments = parseSmartQrels(src.text, label);
    const total = judgments.length;
    const negatives = judgments.filter((j) => j.grade < 0);
    if (negatives.length) {
      if ((o.negative ?? 'drop') === 'drop') {
        judgments = judgments.filter((j) => j.grade >= 0);
        notes.push(
          `${label}: dropped ${negatives.length} of ${total} lines with a negative code (${[...new Set(negatives.map((j) => j.grade))].join(', ')}); they are undocumented.`,
        );
      } else {
        judgments = judgments.map((j) => (j.grade < 0 ? { ...j, grade: 0 } : j));
        notes.push(
          `${label}: ${negatives.length} lines with a negative code kept as grade 0 (judged not relevant).`,
        );
      }
    }
    if (o.positionalQueryIds) {
      judgments = judgments.map((j) => {
        const n = Number(j.query_id);
        const q = Number.isInteger(n) && n >= 1 ? queries[n - 1] : undefined;
        if (!q)
          throw new RgateError(
            'input_invalid',
            `${j.where}: query ${j.query_id} has no position in ${qlabel} (${queries.length} queries)`,
          );
        return { ...j, query_id: q.query_id };
      });
      notes.push(`${label}: query numbers are positional: qrels query n = the n-th .I record of ${qlabel}.`);
    }
    if (o.reverseGrades !== undefined) {
      const max = o.reverseGrades === 'max' ? Math.max(0, ...judgments.map((j) => j.grade)) : o.reverseGrades;
      judgments = judgments.map((j) => (j.grade > 0 ? { ...j, grade: max + 1 - j.grade } : j));
      notes.push(
        `${label}: codes reversed so higher = more relevant: grade = ${max + 1} - code (code 1 -> ${max}, code ${max} -> 1).`,
      );
    }
    attachQrels(queries, judgments);
    notes.push(`${label}: ${total} lines read, ${judgments.length} judgments kept.`);
  }
  const r = { counts: countsOf(corpus.length, queries), notes, sources };
  writeFixtureSet(o.out, {
    corpus,
    queries,
    config: o.config ?? DEFAULT_IMPORT_CONFIG,
    provenance: provenanceText('smart', r, o.command),
  });
  return { dir: o.out, ...r };
}
