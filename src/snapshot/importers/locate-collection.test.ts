import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { locateSmartFiles, locateTrecFiles } from './locate-collection.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rgate-locate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const touch = (...names: string[]): void => {
  for (const n of names) {
    if (n.endsWith('/')) mkdirSync(join(dir, n), { recursive: true });
    else writeFileSync(join(dir, n), 'x');
  }
};

describe('locateTrecFiles', () => {
  it("finds Anserini's CACM layout; runs/, SOURCE.md and dot-files are not data", () => {
    touch('topics.cacm.txt', 'qrels.cacm.txt', 'cacm.tar.gz', 'SOURCE.md', '.gitattributes', 'runs/');
    expect(locateTrecFiles(dir)).toEqual({
      topics: join(dir, 'topics.cacm.txt'),
      qrels: [join(dir, 'qrels.cacm.txt')],
      docs: join(dir, 'cacm.tar.gz'),
    });
  });

  it('takes every qrels file, a docs/ folder when there is no tarball, and what the user names', () => {
    touch('topics.301-350.txt', 'qrels.301-350.txt', 'qrels.351-400.txt', 'docs/');
    const found = locateTrecFiles(dir);
    expect(found.qrels).toEqual([join(dir, 'qrels.301-350.txt'), join(dir, 'qrels.351-400.txt')]);
    expect(found.docs).toBe(join(dir, 'docs'));
    expect(locateTrecFiles(dir, { qrels: ['/elsewhere/q.txt'] }).qrels).toEqual(['/elsewhere/q.txt']);
  });

  it('two candidates or none: a usage error naming them and the flag', () => {
    touch('topics.a.txt', 'topics.b.txt', 'qrels.txt', 'docs.tar.gz');
    expect(() => locateTrecFiles(dir)).toThrow(
      /2 files could be the topics \(topics\.a\.txt, topics\.b\.txt\)/,
    );
    rmSync(join(dir, 'topics.b.txt'));
    rmSync(join(dir, 'docs.tar.gz'));
    expect(() => locateTrecFiles(dir)).toThrow(
      /no documents found \(looked for a \.tar\.gz, a folder named docs/,
    );
    writeFileSync(join(dir, 'collection.trec'), '<DOC>');
    expect(locateTrecFiles(dir).docs).toBe(join(dir, 'collection.trec'));
    expect(() => locateTrecFiles(join(dir, 'qrels.txt'))).toThrow(/not a folder/);
  });
});

describe('locateSmartFiles', () => {
  it("finds Glasgow's Cranfield layout (the readme and tarball are not data) and the classic CACM names", () => {
    touch('cran.all.1400', 'cran.qry', 'cranqrel', 'cranqrel.readme', 'cran.tar.gz');
    expect(locateSmartFiles(dir)).toEqual({
      docs: join(dir, 'cran.all.1400'),
      queries: join(dir, 'cran.qry'),
      qrels: join(dir, 'cranqrel'),
    });
    const cacm = join(dir, 'cacm');
    mkdirSync(cacm);
    for (const n of ['cacm.all', 'query.text', 'qrels.text', 'common_words', 'cite.info'])
      writeFileSync(join(cacm, n), 'x');
    expect(locateSmartFiles(cacm)).toEqual({
      docs: join(cacm, 'cacm.all'),
      queries: join(cacm, 'query.text'),
      qrels: join(cacm, 'qrels.text'),
    });
  });

  it('CISI-style upper-case names, .REL qrels', () => {
    touch('CISI.ALL', 'CISI.QRY', 'CISI.REL');
    expect(locateSmartFiles(dir).qrels).toBe(join(dir, 'CISI.REL'));
  });
});
