import type { AnalyzerConfig } from '../core/index.js';
import { createAnalyzer } from './analyzer.js';
import { fnv1a32 } from './fnv1a.js';
import { tokenize } from './tokenize.js';
import type { Embedder } from './types.js';

/**
 * The default embedder: deterministic signed feature hashing into `dimensions` (768) buckets.
 * THIS IS LEXICAL HASHING, NOT A NEURAL MODEL: two texts are close only when they share words or
 * word pieces; synonyms and paraphrases are invisible to it. It exists so semantic mode runs out of
 * the box with no model download and gives bit-identical vectors on every machine.
 *
 * Features of a text:
 * - word unigrams after analysis (lowercase, stopwords, Porter), weight 1 each occurrence;
 * - character 3- to 5-grams of each lowercased word wrapped as `<word>`, sharing weight 1 per word
 *   (each of a word's n-grams gets 1/count), so long words do not dominate.
 * Each feature f goes to bucket fnv1a32(f, seed 0x9747b28c) mod D with sign from bit 0 of
 * fnv1a32(f, seed 0x5bd1e995); namespaces `w:` and `c:` keep words and n-grams apart. Counts are
 * dampened by sqrt (sublinear tf) and the vector is L2-normalised (all-zero for a text with no features).
 */
export const HASHED_EMBEDDER_ID = 'hashed-ngram';

const BUCKET_SEED = 0x9747b28c;
const SIGN_SEED = 0x5bd1e995;

export function createHashedEmbedder(
  dimensions = 768,
  analyzer: AnalyzerConfig = DEFAULT_ANALYZER,
): Embedder {
  if (!Number.isInteger(dimensions) || dimensions <= 0)
    throw new RangeError(`dimensions must be a positive integer`);
  const an = createAnalyzer(analyzer);
  return {
    id: `${HASHED_EMBEDDER_ID}-${dimensions}@1`,
    dimensions,
    embed(text: string): Float32Array {
      // accumulate feature weights first (sublinear tf per feature), then hash
      const feats = new Map<string, number>();
      const add = (f: string, w: number): void => {
        feats.set(f, (feats.get(f) ?? 0) + w);
      };
      for (const w of an.analyze(text)) add('w:' + w, 1);
      for (const raw of tokenize(text)) {
        const word = '<' + raw.toLowerCase() + '>';
        const grams: string[] = [];
        for (let n = 3; n <= 5; n++)
          for (let i = 0; i + n <= word.length; i++) grams.push(word.slice(i, i + n));
        if (grams.length === 0) continue;
        const share = 1 / grams.length;
        for (const g of grams) add('c:' + g, share);
      }
      const acc = new Float64Array(dimensions);
      // Map iteration is insertion order, which is a pure function of the text: deterministic.
      for (const [f, w] of feats) {
        const bucket = fnv1a32(f, BUCKET_SEED) % dimensions;
        const sign = (fnv1a32(f, SIGN_SEED) & 1) === 0 ? 1 : -1;
        acc[bucket] = (acc[bucket] as number) + sign * Math.sqrt(w);
      }
      let norm = 0;
      for (let i = 0; i < dimensions; i++) norm += (acc[i] as number) * (acc[i] as number);
      const out = new Float32Array(dimensions);
      if (norm > 0) {
        const inv = 1 / Math.sqrt(norm);
        for (let i = 0; i < dimensions; i++) out[i] = (acc[i] as number) * inv;
      }
      return out;
    },
  };
}

const DEFAULT_ANALYZER: AnalyzerConfig = { lowercase: true, stopwords: true, stemmer: 'porter' };
