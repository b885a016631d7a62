import { describe, expect, it } from 'vitest';
import type { CorpusRecord } from '../documents/index.js';
import { createEngine } from './engine.js';
import { createHashedEmbedder, createTfidfHashedEmbedder, TFIDF_DEFAULTS } from './hashed-embedder.js';
import { cfg, rec } from './test-helpers.js';
import type { EmbedderFields } from './types.js';

const cos = (x: Float32Array, y: Float32Array): number => x.reduce((s, v, i) => s + v * (y[i] as number), 0);
const norm = (x: Float32Array): number => Math.sqrt(x.reduce((s, v) => s + v * v, 0));

// 'common' is in every document, 'zebra' in one: a rare shared term must weigh more
const docs: EmbedderFields[] = [
  { text: 'zebra crossing lights' },
  { text: 'common crossing lights' },
  ...Array.from({ length: 30 }, (_, i) => ({
    text: `common note ${'abcdefghijklmnopqrstuvwxyzabcd'[i]}x filler`,
  })),
];

describe('TF-IDF hashed embedder (v2)', () => {
  const e = createTfidfHashedEmbedder(() => docs);

  it('is deterministic, 768-dimensional and L2-normalised, zero for a text without features', () => {
    const a = e.embed('zebra crossing');
    expect(a.length).toBe(768);
    expect(e.id).toBe('hashed-tfidf-768@2');
    expect(Array.from(a)).toEqual(Array.from(e.embed('zebra crossing')));
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(norm(e.embedFields({ title: 'Zebra', text: 'crossing lights' }))).toBeCloseTo(1, 5);
    expect(e.embed('').every((x) => x === 0)).toBe(true);
    // numbers are not features (dropNumbers), so a numbers-only text has none
    expect(e.embed('2026 11 22 3.14').every((x) => x === 0)).toBe(true);
  });

  it('lets a rare shared term count more than a common one (idf from the collection)', () => {
    const q = e.embed('zebra common');
    const rare = e.embedFields(docs[0] as EmbedderFields);
    const common = e.embedFields(docs[1] as EmbedderFields);
    expect(cos(q, rare)).toBeGreaterThan(cos(q, common) + 0.2);
    // without idf (v1) the two records are equally close to the query, up to hash noise
    const v1 = createHashedEmbedder(768);
    const q1 = v1.embed('zebra common');
    expect(
      Math.abs(cos(q1, v1.embed('zebra crossing lights')) - cos(q1, v1.embed('common crossing lights'))),
    ).toBeLessThan(0.15);
  });

  it('does not depend on the order of the collection, and reads it once, lazily', () => {
    let reads = 0;
    const fwd = createTfidfHashedEmbedder(() => {
      reads++;
      return docs;
    });
    const rev = createTfidfHashedEmbedder(() => docs.slice().reverse());
    expect(reads).toBe(0);
    for (const t of ['zebra common', 'note filler crossing', 'unseen words here']) {
      expect(Array.from(fwd.embed(t))).toEqual(Array.from(rev.embed(t)));
      expect(Array.from(fwd.embedFields({ title: t, text: 'lights' }))).toEqual(
        Array.from(rev.embedFields({ title: t, text: 'lights' })),
      );
    }
    expect(reads).toBe(1);
  });

  it('weights title terms above body terms in records', () => {
    const q = e.embed('zebra');
    const inTitle = e.embedFields({ title: 'zebra', text: 'crossing lights' });
    const inText = e.embedFields({ title: 'crossing', text: 'zebra lights' });
    expect(cos(q, inTitle)).toBeGreaterThan(cos(q, inText));
    const flat = createTfidfHashedEmbedder(() => docs, { titleWeight: 1 });
    expect(cos(q, flat.embedFields({ title: 'zebra', text: 'crossing lights' }))).toBeLessThan(
      cos(q, inTitle),
    );
  });

  it('names non-default settings in its id and rejects bad options', () => {
    expect(createTfidfHashedEmbedder(() => docs, { wordShare: 1, dropNumbers: false }).id).toBe(
      'hashed-tfidf-768@2(wordShare=1,dropNumbers=false)',
    );
    expect(createTfidfHashedEmbedder(() => docs, { ...TFIDF_DEFAULTS }).id).toBe('hashed-tfidf-768@2');
    expect(() => createTfidfHashedEmbedder(() => docs, { wordShare: 2 })).toThrow(RangeError);
    expect(() => createTfidfHashedEmbedder(() => docs, { titleWeight: 0 })).toThrow(RangeError);
    expect(() => createTfidfHashedEmbedder(() => docs, { dimensions: 0 })).toThrow(RangeError);
  });
});

describe('engine default embedder', () => {
  const corpus: CorpusRecord[] = [
    rec('a', 'Zebra crossing lights are checked weekly.', { title: 'Zebra crossings' }),
    rec('b', 'Common crossing lights are checked monthly.'),
    rec('s', 'zebra zebra zebra secret token', { tags: ['secret'] }),
    ...Array.from({ length: 12 }, (_, i) =>
      rec(`f${String(i).padStart(2, '0')}`, `Common filler note ${i}.`),
    ),
  ];
  const config = cfg({ semantic: { confidence_min: 0, ambiguity_margin: 0 } });

  it('is the TF-IDF embedder with df from the engine corpus, independent of record order', () => {
    const one = createEngine(corpus, config).select({ query: 'zebra common lights' });
    const two = createEngine(corpus.slice().reverse(), config).select({ query: 'zebra common lights' });
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
    if ('error' in one) throw new Error(one.error.message);
    expect(one.embedder).toBe('hashed-tfidf-768@2');
    expect(one.selected_id).toBe('a');
    expect(one.candidates.some((c) => c.id === 's')).toBe(false);
  });

  it('leaves withheld records out of the document frequencies', () => {
    // with the secret record counted, 'zebra' would be in 2 of 15 records instead of 1 of 14
    // (a multi-term query: with one term the idf would cancel out in the normalisation)
    const query = 'zebra crossing lights';
    const withTag = createEngine(corpus, config).select({ query });
    const without = createEngine(
      corpus.filter((r) => r.id !== 's'),
      config,
    ).select({ query });
    if ('error' in withTag || 'error' in without) throw new Error('envelope');
    expect(withTag.candidates).toEqual(without.candidates);
  });
});
