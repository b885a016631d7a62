import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importSmart, parseSmart, parseSmartQrels } from './smart.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-smart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SMART tagged text', () => {
  it('parses .I/.T/.A/.B/.W records with CRLF and multi-line fields', () => {
    const text =
      '.I 1\r\n.T\r\nwing in a\r\nslipstream .\r\n.A\r\nbrenckman,m.\r\n.W\r\nabstract\r\n.I 2\r\n.W\r\n\r\n';
    expect(parseSmart(text, 'docs')).toEqual([
      { id: '1', line: 1, fields: { T: 'wing in a\nslipstream .', A: 'brenckman,m.', W: 'abstract' } },
      { id: '2', line: 9, fields: { W: '' } },
    ]);
  });

  it('gives file:line for text outside a record, a bare .I and a repeated id', () => {
    expect(() => parseSmart('hello\n.I 1\n', 'cran.qry')).toThrow('cran.qry:1: text outside a field');
    expect(() => parseSmart('.I 1\n.W\nx\n.I\n', 'cran.qry')).toThrow('cran.qry:4: .I without an id');
    expect(() => parseSmart('.I 1\n.W\nx\n.I 1\n.W\ny\n', 'q')).toThrow(
      'q:4: .I 1 repeats the record on line 1',
    );
  });

  it('reads 3-column, TREC 4-column and CISI float qrels', () => {
    expect(
      parseSmartQrels('1 184 2 \n\n2 7 -1', 'cranqrel').map((j) => [j.query_id, j.doc_id, j.grade, j.where]),
    ).toEqual([
      ['1', '184', 2, 'cranqrel:1'],
      ['2', '7', -1, 'cranqrel:3'],
    ]);
    expect(parseSmartQrels('1 0 13 1\n', 'MED.REL')[0]).toMatchObject({
      query_id: '1',
      doc_id: '13',
      grade: 1,
    });
    expect(parseSmartQrels('1     28      0       0.000000\n', 'CISI.REL')[0]).toMatchObject({
      doc_id: '28',
      grade: 1,
    });
    expect(() => parseSmartQrels('1 2\n', 'x')).toThrow(
      'x:1: expected "query doc code" (3 columns), got 2 columns',
    );
  });
});

describe('importSmart', () => {
  const qry = '.I 001\r\n.W\r\nfirst query\r\n.I 004\r\n.W\r\nsecond\r\nquery\r\n';
  const docs = '.I 1\n.T\nt1\n.W\nw1\n.I 2\n.T\nt2\n.W\nw2\n';
  writeFileSync(join(dir, 'q'), qry);
  writeFileSync(join(dir, 'd'), docs);
  writeFileSync(join(dir, 'r'), '1 1 1\n1 2 4\n1 2 -1\n2 2 2\n2 1 -1');

  it('maps positional ids, reverses codes with max, drops -1 (documented in notes)', () => {
    // note: "1 2 4" and "1 2 -1" name the same pair; the -1 line is dropped first, so no conflict
    const r = importSmart({
      docs: join(dir, 'd'),
      queries: join(dir, 'q'),
      qrels: join(dir, 'r'),
      out: join(dir, 'out'),
      positionalQueryIds: true,
      reverseGrades: 'max',
    });
    expect(r.counts).toEqual({ corpus_records: 2, queries: 2, judged_queries: 2, judgments: 3 });
    const qs = readFileSync(join(dir, 'out', 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(qs).toEqual([
      { query_id: '001', text: 'first query', qrels: { '1': 4, '2': 1 } },
      { query_id: '004', text: 'second query', qrels: { '2': 3 } },
    ]);
    expect(r.notes.join('\n')).toMatch(/dropped 2 of 5 lines with a negative code/);
    const corpus = readFileSync(join(dir, 'out', 'corpus.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(corpus[0]).toEqual({ id: '1', title: 't1', text: 'w1' });
  });

  it('without positional ids a qrels query must exist by id; negative zero keeps -1 as 0', () => {
    expect(() =>
      importSmart({ queries: join(dir, 'q'), qrels: join(dir, 'r'), out: join(dir, 'o2') }),
    ).toThrow('r:1: judgment for query "1", which is not in the query file');
    writeFileSync(join(dir, 'r2'), '1 1 1\n2 2 -1\n');
    const r = importSmart({
      queries: join(dir, 'q'),
      qrels: join(dir, 'r2'),
      out: join(dir, 'o3'),
      positionalQueryIds: true,
      negative: 'zero',
    });
    expect(r.counts.judgments).toBe(2);
    expect(readFileSync(join(dir, 'o3', 'queries.jsonl'), 'utf8')).toContain('"qrels":{"2":0}');
  });

  it('a positional number past the end of the query file is an error', () => {
    writeFileSync(join(dir, 'r3'), '3 1 1\n');
    expect(() =>
      importSmart({
        queries: join(dir, 'q'),
        qrels: join(dir, 'r3'),
        out: join(dir, 'o4'),
        positionalQueryIds: true,
      }),
    ).toThrow('r3:1: query 3 has no position in q (2 queries)');
  });
});
