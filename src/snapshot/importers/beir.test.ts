import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QueryRecord } from '../../documents/index.js';
import { parseBeirQrels } from './common.js';
import { importBeir } from './beir.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-beir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// fixtures/scifact-source: byte copies of the shared SciFact files (see its PROVENANCE.md)
const src = resolve(import.meta.dirname, '../../../fixtures/scifact-source');

describe('BEIR qrels TSV', () => {
  it('needs the header and reads CRLF rows', () => {
    expect(
      parseBeirQrels('query-id\tcorpus-id\tscore\r\n1\t31715818\t1\r\n', 't').map((j) => j.doc_id),
    ).toEqual(['31715818']);
    expect(() => parseBeirQrels('1\t2\t1\n', 'test.tsv')).toThrow('test.tsv:1: expected the header');
    expect(() => parseBeirQrels('query-id\tcorpus-id\tscore\n1\t2\n', 'test.tsv')).toThrow(
      'test.tsv:2: expected 3 TAB-separated columns, got 2',
    );
  });
});

describe('importBeir on SciFact (queries + qrels; the corpus is not available)', () => {
  const r = importBeir({
    queries: join(src, 'queries.jsonl'),
    qrels: [join(src, 'qrels', 'test.tsv'), join(src, 'qrels', 'train.tsv')],
    out: join(dir, 'scifact'),
  });
  const queries = readFileSync(join(dir, 'scifact', 'queries.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as QueryRecord);
  const split = (s: string): QueryRecord[] => queries.filter((q) => q.tags?.includes(`split:${s}`));
  const rows = (qs: QueryRecord[]): number => qs.reduce((n, q) => n + Object.keys(q.qrels ?? {}).length, 0);

  it('1109 queries; test 339 rows over 300 queries; train 919 rows over 809 queries', () => {
    expect(queries).toHaveLength(1109);
    expect(split('test')).toHaveLength(300);
    expect(rows(split('test'))).toBe(339);
    expect(split('train')).toHaveLength(809);
    expect(rows(split('train'))).toBe(919);
    expect(r.counts).toEqual({ corpus_records: 0, queries: 1109, judged_queries: 1109, judgments: 1258 });
  });

  it('says the corpus is empty, and writes an empty corpus.jsonl', () => {
    expect(r.notes[0]).toContain('corpus.jsonl is empty');
    expect(readFileSync(join(dir, 'scifact', 'corpus.jsonl'), 'utf8')).toBe('');
  });

  it('with one split keeps its 300 judged queries, as BEIR evaluates; --all-queries keeps all 1109', () => {
    const t = importBeir({
      queries: join(src, 'queries.jsonl'),
      qrels: [join(src, 'qrels', 'test.tsv')],
      out: join(dir, 't'),
    });
    expect(t.counts).toEqual({ corpus_records: 0, queries: 300, judged_queries: 300, judgments: 339 });
    expect(t.notes).toContain(
      'Kept the 300 of 1109 queries the qrels judge, as BEIR evaluates (--all-queries keeps the others).',
    );
    const all = importBeir({
      queries: join(src, 'queries.jsonl'),
      qrels: [join(src, 'qrels', 'test.tsv')],
      out: join(dir, 'all'),
      allQueries: true,
    });
    expect(all.counts).toEqual({ corpus_records: 0, queries: 1109, judged_queries: 300, judgments: 339 });
  });

  it('imports a BEIR corpus as is (`_id/title/text`) and names file:line of a bad line', () => {
    writeFileSync(
      join(dir, 'corpus.jsonl'),
      '{"_id":"4983","title":"T","text":"x","metadata":{}}\n{"_id":"5","text":3}\n',
    );
    expect(() =>
      importBeir({
        corpus: join(dir, 'corpus.jsonl'),
        queries: join(src, 'queries.jsonl'),
        qrels: [],
        out: join(dir, 'c'),
      }),
    ).toThrow('corpus.jsonl:2 /text: must be string');
    writeFileSync(join(dir, 'corpus.jsonl'), '{"_id":"4983","title":"T","text":"x","metadata":{}}\n');
    importBeir({
      corpus: join(dir, 'corpus.jsonl'),
      queries: join(src, 'queries.jsonl'),
      qrels: [],
      out: join(dir, 'c'),
    });
    expect(readFileSync(join(dir, 'c', 'corpus.jsonl'), 'utf8')).toBe(
      '{"id":"4983","text":"x","title":"T"}\n',
    );
  });
});
