import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
});
