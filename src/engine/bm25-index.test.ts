import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25Index, bagOfWords, type Bm25Params } from './bm25-index.js';
import { byte4ToInt, intToByte4, luceneQuantizedLength } from './lucene-norms.js';
import { TopK } from './top-k.js';

/** Textbook BM25 over plain arrays: the oracle the typed-array index must agree with. */
function bruteForce(docs: string[][], query: string[], p: Bm25Params): { doc: number; score: number }[] {
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / n;
  const out: { doc: number; score: number }[] = [];
  // the engine sums a document's terms rarest first (df asc, then term): same order here, so exact
  // float ties are the same ties
  const dfOf = (t: string): number => docs.filter((x) => x.includes(t)).length;
  const bag = bagOfWords(query).sort(
    (x, y) => dfOf(x.term) - dfOf(y.term) || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0),
  );
  docs.forEach((doc, d) => {
    let score = 0;
    let hit = false;
    for (const { term, weight } of bag) {
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      hit = true;
      const df = docs.filter((x) => x.includes(term)).length;
      const dl = p.lengthNorm === 'lucene' ? luceneQuantizedLength(doc.length) : doc.length;
      const norm = p.k1 * (1 - p.b + (p.b * dl) / avgdl);
      if (p.formula === 'lucene') {
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += weight * idf * (tf / (tf + norm)); // same operation order as the engine (exact ties)
      } else {
        let idf = Math.log((n - df + 0.5) / (df + 0.5));
        if (idf <= 0) idf = 1e-6;
        score += weight * idf * ((tf * (p.k1 + 1)) / (tf + norm));
      }
    }
    if (hit) out.push({ doc: d, score });
  });
  return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

describe('Lucene SmallFloat length norm', () => {
  it('is exact below 24 and keeps 4 significant bits above', () => {
    for (let i = 0; i < 24; i++) expect(luceneQuantizedLength(i)).toBe(i);
    expect(luceneQuantizedLength(100)).toBe(96);
    expect(luceneQuantizedLength(150)).toBe(144);
    expect(luceneQuantizedLength(1000)).toBe(984);
  });
  it('round-trips every byte and never exceeds the true length', () => {
    for (let b = 0; b < 256; b++) expect(intToByte4(byte4ToInt(b))).toBe(b);
    for (let i = 0; i < 5000; i += 7) expect(luceneQuantizedLength(i)).toBeLessThanOrEqual(i);
  });
});

describe('TopK', () => {
  it('keeps the k best under score desc, doc asc', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 12 }),
        (scores, k) => {
          const heap = new TopK(k);
          scores.forEach((s, d) => heap.offer(d, s));
          const expected = scores
            .map((score, doc) => ({ doc, score }))
            .sort((a, b) => b.score - a.score || a.doc - b.doc)
            .slice(0, k);
          expect(heap.drain()).toEqual(expected);
        },
      ),
    );
  });
});

describe('Bm25Index', () => {
  const vocab = ['a', 'b', 'c', 'd', 'e', 'f'];
  const docArb = fc.array(fc.constantFrom(...vocab), { minLength: 0, maxLength: 30 });
  for (const formula of ['lucene', 'fts5'] as const) {
    for (const lengthNorm of ['exact', 'lucene'] as const) {
      it(`matches textbook BM25 (${formula}, ${lengthNorm} lengths) and its exact top-k`, () => {
        fc.assert(
          fc.property(
            fc.array(docArb, { minLength: 1, maxLength: 25 }),
            fc.array(fc.constantFrom(...vocab, 'zz'), { minLength: 1, maxLength: 4 }),
            fc.integer({ min: 1, max: 30 }),
            (docs, query, k) => {
              const p: Bm25Params = { k1: 1.2, b: 0.75, formula, lengthNorm };
              const index = Bm25Index.fromTokens(docs, p);
              const expected = bruteForce(docs, query, p);
              const got = index.search(bagOfWords(query), k);
              expect(got.map((h) => h.doc)).toEqual(expected.slice(0, k).map((h) => h.doc));
              got.forEach((h, i) => expect(h.score).toBeCloseTo((expected[i] as { score: number }).score, 9));
              const all = index.scoreAll(bagOfWords(query));
              expect(all.docs.length).toBe(expected.length);
            },
          ),
          { numRuns: 150 },
        );
      });
    }
  }
  it('reports coverage of distinct query terms and handles unknown terms and k = 0', () => {
    const docs = [['x', 'y'], ['x'], ['z']];
    const index = Bm25Index.fromTokens(docs, {
      k1: 0.9,
      b: 0.4,
      formula: 'lucene',
      lengthNorm: 'exact',
    });
    const all = index.scoreAll(bagOfWords(['x', 'y', 'y', 'nope']));
    const cov = new Map<number, number>();
    all.docs.forEach((d, i) => cov.set(d, all.coverage[i] as number));
    expect(Object.fromEntries(cov)).toEqual({ 0: 2, 1: 1 });
    expect(all.knownTerms).toBe(2);
    expect(index.search(bagOfWords(['x']), 0)).toEqual([]);
    expect(index.search(bagOfWords(['nope']), 5)).toEqual([]);
  });
  it('uses Uint32 term frequencies only when a count exceeds 65535', () => {
    const big = Array<string>(70000).fill('w');
    const index = Bm25Index.fromTokens([big], { k1: 1.2, b: 0.75, formula: 'fts5', lengthNorm: 'exact' });
    expect(index.postTf).toBeInstanceOf(Uint32Array);
    expect(index.postTf[0]).toBe(70000);
  });
});
