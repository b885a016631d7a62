import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importSmart, importTrec, loadFixtureSet, verifyFixtureSet } from '../src/snapshot/index.js';

/** The bundled sets: counts as the issue states them, and re-importing reproduces the committed files. */
const repo = resolve(import.meta.dirname, '..');
const shared = resolve(repo, '..', 'shared', 'datasets');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-fixtures-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('fixtures/cacm', () => {
  const suite = loadFixtureSet('cacm', { root: repo });

  it('verifies and has 3204 docs, 64 topics, qrels for 52 topics (796 lines)', () => {
    expect(verifyFixtureSet(suite.dir).ok).toBe(true);
    expect(suite.corpus).toHaveLength(3204);
    expect(suite.queries).toHaveLength(64);
    const judged = suite.queries.filter((q) => q.qrels && Object.keys(q.qrels).length > 0);
    expect(judged).toHaveLength(52);
    expect(judged.reduce((n, q) => n + Object.keys(q.qrels!).length, 0)).toBe(796);
    expect(suite.freeze.counts).toEqual({
      corpus_records: 3204,
      queries: 64,
      judged_queries: 52,
      judgments: 796,
    });
  });

  it('keeps the unpadded qrels ids as shipped while doc ids are padded', () => {
    expect(suite.corpus[0]!.id).toBe('CACM-0001');
    expect(suite.corpus[3203]!.id).toBe('CACM-3204');
    const ids = new Set(suite.corpus.map((d) => d.id));
    const judgedIds = suite.queries.flatMap((q) => Object.keys(q.qrels ?? {}));
    const unmatched = judgedIds.filter((id) => !ids.has(id));
    expect(unmatched).toHaveLength(55); // SOURCE.md: 55 lines, 46 distinct docs
    expect(new Set(unmatched).size).toBe(46);
    expect(unmatched).toContain('CACM-46');
  });

  it('has the BM25 config of the published baseline and pinned ids', () => {
    expect(suite.config).toMatchObject({ mode: 'bm25', k: 1000, bm25: { k1: 0.9, b: 0.4 } });
    expect(suite.config.analyzer).toEqual({ lowercase: true, stopwords: true, stemmer: 'porter' });
    expect(suite.artifacts.artifact_id).toBe('cacm-fixture');
    expect(suite.artifacts.corpus_id).toMatch(/^cacm\/corpus@v1#[0-9a-f]{16}$/);
    expect(suite.artifacts.corpus_sha256).toBe(suite.freeze.corpus_sha256);
  });

  it('document text is the <pre> content; topic text is the collapsed <DOC> body', () => {
    expect(suite.corpus[0]!.text.startsWith('Preliminary Report-International Algebraic Language')).toBe(
      true,
    );
    expect(suite.queries[0]).toMatchObject({ query_id: '1' });
    expect(suite.queries[0]!.text).toBe(
      'What articles exist which deal with TSS (Time Sharing System), an operating system for IBM computers?',
    );
  });
});

describe('fixtures/cranfield', () => {
  const suite = loadFixtureSet('cranfield', { root: repo });

  it('verifies and has 1400 docs, 225 queries, 1612 judgments (1837 lines minus 225 `-1`)', () => {
    expect(verifyFixtureSet(suite.dir).ok).toBe(true);
    expect(suite.corpus).toHaveLength(1400);
    expect(suite.queries).toHaveLength(225);
    const grades = suite.queries.flatMap((q) => Object.values(q.qrels ?? {}));
    expect(grades).toHaveLength(1612);
    // cranqrel codes 1:128 2:387 3:734 4:363 -> grades 4:128 3:387 2:734 1:363
    const hist = (g: number): number => grades.filter((x) => x === g).length;
    expect([hist(4), hist(3), hist(2), hist(1), hist(0)]).toEqual([128, 387, 734, 363, 0]);
  });

  it('maps positional qrels query numbers to .I ids (qrel query 3 is .I 004, 225 is .I 365)', () => {
    expect(suite.queries.map((q) => q.query_id).slice(0, 4)).toEqual(['001', '002', '004', '008']);
    expect(suite.queries[224]!.query_id).toBe('365');
    // cranqrel line `1 184 2` -> query 001, doc 184, grade 5-2 = 3
    expect(suite.queries[0]!.qrels!['184']).toBe(3);
    const raw = readFileSync(join(suite.dir, 'source', 'cranqrel'), 'utf8');
    const q3 = raw.split('\n').filter((l) => l.startsWith('3 ') && !l.trim().endsWith('-1'));
    expect(Object.keys(suite.queries[2]!.qrels!)).toHaveLength(q3.length);
  });
});

describe('re-importing from ../shared/datasets reproduces the committed files', () => {
  const have =
    existsSync(join(shared, 'cacm', 'cacm.tar.gz')) && existsSync(join(shared, 'cranfield', 'cran.all.1400'));
  it.skipIf(!have)('cacm (trec importer; skipped when ../shared/datasets is absent)', async () => {
    const out = join(tmp, 'cacm');
    const r = await importTrec({
      topics: join(repo, 'fixtures/cacm/source/topics.cacm.txt'),
      qrels: [join(repo, 'fixtures/cacm/source/qrels.cacm.txt')],
      docs: join(shared, 'cacm/cacm.tar.gz'),
      config: JSON.parse(readFileSync(join(repo, 'fixtures/cacm/config.json'), 'utf8')),
      out,
    });
    expect(r.counts).toEqual({ corpus_records: 3204, queries: 64, judged_queries: 52, judgments: 796 });
    for (const f of ['corpus.jsonl', 'queries.jsonl', 'config.json'])
      expect(readFileSync(join(out, f)).equals(readFileSync(join(repo, 'fixtures/cacm', f))), f).toBe(true);
  });
  it.skipIf(!have)('cranfield (smart importer; skipped when ../shared/datasets is absent)', () => {
    const out = join(tmp, 'cranfield');
    const r = importSmart({
      docs: join(shared, 'cranfield/cran.all.1400'),
      queries: join(repo, 'fixtures/cranfield/source/cran.qry'),
      qrels: join(repo, 'fixtures/cranfield/source/cranqrel'),
      positionalQueryIds: true,
      reverseGrades: 'max',
      config: JSON.parse(readFileSync(join(repo, 'fixtures/cranfield/config.json'), 'utf8')),
      out,
    });
    expect(r.counts).toEqual({ corpus_records: 1400, queries: 225, judged_queries: 225, judgments: 1612 });
    expect(r.notes.join('\n')).toContain('dropped 225 of 1837 lines');
    for (const f of ['corpus.jsonl', 'queries.jsonl', 'config.json'])
      expect(readFileSync(join(out, f)).equals(readFileSync(join(repo, 'fixtures/cranfield', f))), f).toBe(
        true,
      );
  });
});
