import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from './analyzer.js';
import { IntVec } from './int-vec.js';
import { TermDictionary } from './term-dictionary.js';

/** The dictionary must give exactly what analysing each token and numbering terms in first-seen order gives. */
function reference(
  texts: string[],
  cfg: Parameters<typeof createAnalyzer>[0],
): { ids: number[][]; terms: string[] } {
  const an = createAnalyzer(cfg);
  const map = new Map<string, number>();
  const ids = texts.map((t) =>
    an.analyze(t).map((term) => {
      let id = map.get(term);
      if (id === undefined) {
        id = map.size;
        map.set(term, id);
      }
      return id;
    }),
  );
  return { ids, terms: [...map.keys()] };
}

const piece = fc.oneof(
  fc.constantFrom('the', 'The', 'running', 'Runner', "O'Neil's", 'I.B.M.', '3.14', '1,000', 'a', 'x'),
  fc.constantFrom('naïve', 'Москва', '東京', 'élan', '𝐀𝐁', 'supercalifragilistic', 'abcdef', 'abcdefg'),
  fc.stringMatching(/^[a-zA-Z0-9]{1,12}$/),
);
const textArb = fc
  .array(fc.tuple(piece, fc.constantFrom(' ', ', ', '. ', '\n', '-', "'")), { maxLength: 30 })
  .map((parts) => parts.map(([w, sep]) => w + sep).join(''));

describe('TermDictionary', () => {
  for (const cfg of [
    { lowercase: true, stopwords: true, stemmer: 'porter' as const },
    { lowercase: false, stopwords: false, stemmer: 'none' as const },
    { lowercase: true, stopwords: false, stemmer: 'none' as const },
  ]) {
    it(`maps tokens to the same term ids as the analyzer (${JSON.stringify(cfg)})`, () => {
      fc.assert(
        fc.property(fc.array(textArb, { maxLength: 12 }), (texts) => {
          const dict = new TermDictionary(createAnalyzer(cfg));
          const got = texts.map((t) => {
            const out = new IntVec(8);
            dict.indexTerms(t, out);
            return Array.from(out.toArray());
          });
          const ref = reference(texts, cfg);
          expect(got).toEqual(ref.ids);
          expect(dict.size).toBe(ref.terms.length);
          ref.terms.forEach((term, id) => expect(dict.get(term)).toBe(id));
          expect(dict.get('never-seen-term')).toBeUndefined();
        }),
        { numRuns: 150 },
      );
    });
  }

  it('survives growth and rehashing with many distinct words', () => {
    const dict = new TermDictionary(createAnalyzer({ lowercase: false, stopwords: false, stemmer: 'none' }));
    const words = Array.from(
      { length: 200_000 },
      (_, i) => 'w' + i.toString(36) + (i % 3 === 0 ? 'longertail' : ''),
    );
    const out = new IntVec(1024);
    dict.indexTerms(words.join(' '), out);
    expect(dict.size).toBe(words.length);
    expect(Array.from(out.toArray().subarray(0, 5))).toEqual([0, 1, 2, 3, 4]);
    expect(dict.get(words[123_456] as string)).toBe(123_456);
  });
});
