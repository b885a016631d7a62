import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTrecQrels } from './common.js';
import { importTrec, parseTrecTopics } from './trec.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-trec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TREC topics', () => {
  it('reads the <top> style (closing field tags optional)', () => {
    const text = [
      '<top>',
      '<num> Number: 051',
      '<title> Topic: Airbus Subsidies',
      '',
      '<desc> Description:',
      'Document will discuss government assistance',
      '<narr> Narrative: ...',
      '</top>',
      '<top><num>52</num><title>South African Sanctions</title></top>',
    ].join('\n');
    expect(parseTrecTopics(text, 't')).toEqual([
      {
        num: '051',
        line: 1,
        title: 'Airbus Subsidies',
        description: 'Document will discuss government assistance',
      },
      { num: '52', line: 9, title: 'South African Sanctions' },
    ]);
  });

  it('reads the <DOC><DOCNO> style of CACM', () => {
    const text = '<DOC>\n<DOCNO> 1 </DOCNO>\n\n What articles exist\nabout TSS?\n \n</DOC>\n';
    expect(parseTrecTopics(text, 't')).toEqual([
      { num: '1', line: 1, title: 'What articles exist about TSS?' },
    ]);
  });

  it('gives file:line errors', () => {
    expect(() => parseTrecTopics('x\n<top>\n<title> no number\n</top>', 'topics.txt')).toThrow(
      'topics.txt:2: <top> without a <num>',
    );
    expect(() => parseTrecTopics('nothing here', 'topics.txt')).toThrow('topics.txt: no topics found');
  });
});

describe('TREC qrels', () => {
  it('reads `qid 0 doc rel` and `qid Q0 doc rel`', () => {
    const j = parseTrecQrels('1 0 d1 1\r\n1 Q0 CACM-46 2\n\n', 'q');
    expect(j.map((x) => [x.query_id, x.doc_id, x.grade])).toEqual([
      ['1', 'd1', 1],
      ['1', 'CACM-46', 2],
    ]);
  });
  it('names file:line of a bad line', () => {
    expect(() => parseTrecQrels('1 0 d1 1\n1 0 d2\n', 'qrels.txt')).toThrow(
      'qrels.txt:2: expected 4 columns',
    );
    expect(() => parseTrecQrels('1 0 d1 yes\n', 'qrels.txt')).toThrow(
      'qrels.txt:1: relevance "yes" must be an integer',
    );
  });
});

describe('importTrec', () => {
  it('joins topics and qrels; conflicting duplicate judgments are an error', async () => {
    writeFileSync(join(dir, 'topics'), '<top><num>1</num><title>a b</title><desc>long a b</desc></top>');
    writeFileSync(join(dir, 'qrels'), '1 0 d1 1\n1 0 d1 1\n');
    const r = await importTrec({
      topics: join(dir, 'topics'),
      qrels: [join(dir, 'qrels')],
      out: join(dir, 'o'),
      topicField: 'title+description',
    });
    expect(r.counts).toMatchObject({ queries: 1, judgments: 1 });
    expect(readFileSync(join(dir, 'o', 'queries.jsonl'), 'utf8')).toBe(
      '{"qrels":{"d1":1},"query_id":"1","text":"a b long a b"}\n',
    );
    writeFileSync(join(dir, 'qrels2'), '1 0 d1 1\n1 0 d1 2\n');
    await expect(
      importTrec({ topics: join(dir, 'topics'), qrels: [join(dir, 'qrels2')], out: join(dir, 'o2') }),
    ).rejects.toThrow('qrels2:2: query "1" doc "d1" judged 2, but qrels2:1 says 1');
  });

  it('reads TREC collection files of <DOC> blocks: one file, or a folder mixing them with plain documents', async () => {
    // written for this test in the shape of TREC disks 4-5 (FT, LA Times): DOCNO, HEADLINE, TEXT
    const sgml = [
      '<DOC>',
      '<DOCNO> FT911-1 </DOCNO>',
      '<PROFILE>_AN-BEOA7AAIFT</PROFILE>',
      '<HEADLINE>',
      'FT  14 MAY 91 / Airbus &amp; its <i>subsidies</i>',
      '</HEADLINE>',
      '<TEXT>',
      'Governments argued over support for the aircraft maker.',
      '</TEXT>',
      '</DOC>',
      '<DOC>',
      '<DOCNO>FT911-2</DOCNO>',
      '<TEXT>First part.</TEXT>',
      '<TEXT>Second part.</TEXT>',
      '</DOC>',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'ft911.sgml'), sgml);
    writeFileSync(join(dir, 'sg-topics'), '<top><num>1</num><title>airbus subsidies</title></top>');
    writeFileSync(join(dir, 'sg-qrels'), '1 0 FT911-1 1\n');
    const r = await importTrec({
      topics: join(dir, 'sg-topics'),
      qrels: [join(dir, 'sg-qrels')],
      docs: join(dir, 'ft911.sgml'),
      out: join(dir, 'sg'),
    });
    expect(r.counts).toMatchObject({ corpus_records: 2, queries: 1, judgments: 1 });
    expect(r.notes.join('\n')).toContain('1 TREC collection file(s) of <DOC> blocks');
    const corpus = readFileSync(join(dir, 'sg', 'corpus.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; title?: string; text: string; source_path: string });
    expect(corpus.map((c) => [c.id, c.title, c.text, c.source_path])).toEqual([
      [
        'FT911-1',
        'FT 14 MAY 91 / Airbus & its subsidies',
        'Governments argued over support for the aircraft maker.',
        'ft911.sgml',
      ],
      ['FT911-2', undefined, 'First part.\nSecond part.', 'ft911.sgml'],
    ]);

    // a folder: the collection file beside a plain document; a DOCNO twice is refused with both places
    mkdirSync(join(dir, 'mixed'));
    writeFileSync(join(dir, 'mixed', 'ft911.sgml'), sgml);
    writeFileSync(join(dir, 'mixed', 'note.txt'), 'a plain document');
    const m = await importTrec({
      topics: join(dir, 'sg-topics'),
      qrels: [],
      docs: join(dir, 'mixed'),
      out: join(dir, 'mx'),
    });
    expect(m.counts.corpus_records).toBe(3);
    writeFileSync(join(dir, 'mixed', 'FT911-2.txt'), 'clash');
    await expect(
      importTrec({
        topics: join(dir, 'sg-topics'),
        qrels: [],
        docs: join(dir, 'mixed'),
        out: join(dir, 'mx2'),
      }),
    ).rejects.toThrow('mixed: ft911.sgml and FT911-2.txt both give the id "FT911-2"');

    writeFileSync(join(dir, 'bad.sgml'), '<DOC>\n<TEXT>no number</TEXT>\n</DOC>\n');
    await expect(
      importTrec({
        topics: join(dir, 'sg-topics'),
        qrels: [],
        docs: join(dir, 'bad.sgml'),
        out: join(dir, 'b'),
      }),
    ).rejects.toThrow('bad.sgml:1: <DOC> without a <DOCNO>');
    writeFileSync(join(dir, 'plain.txt'), 'not a collection');
    await expect(
      importTrec({
        topics: join(dir, 'sg-topics'),
        qrels: [],
        docs: join(dir, 'plain.txt'),
        out: join(dir, 'p'),
      }),
    ).rejects.toThrow('expected a directory or .tar.gz of documents, or a TREC file of <DOC><DOCNO> blocks');
  });
});
