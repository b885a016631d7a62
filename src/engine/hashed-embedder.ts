import type { AnalyzerConfig } from '../documents/index.js';
import { createAnalyzer, type Analyzer } from './analyzer.js';
import { fmix32, fnv1a } from '../core/fnv1a.js';
import { tokenize } from './tokenize.js';
import type { Embedder, EmbedderFields } from './types.js';

/**
 * Deterministic lexical hashing embedders. THESE ARE LEXICAL HASHING, NOT NEURAL MODELS: two texts
 * are close only when they share words or word pieces; synonyms and paraphrases are invisible. They
 * exist so semantic mode runs out of the box with no model download and gives bit-identical vectors
 * on every machine.
 *
 * Features of a text (both embedders):
 * - word features `w:<term>`: analysed terms (lowercase, stopwords, Porter), count 1 per occurrence;
 * - char features `c:<gram>`: character 3- to 5-grams of each lowercased token wrapped as `<token>`,
 *   sharing count 1 per token occurrence (each of a token's n-grams gets 1/count), so long words do
 *   not dominate.
 * Each feature f goes to bucket fmix32(fnv1a(f, seed 0x9747b28c)) mod D with sign from bit 0 of
 * fmix32(fnv1a(f, seed 0x5bd1e995)); the vector is L2-normalised (all-zero for a text with no features).
 *
 * `createHashedEmbedder` (v1, `hashed-ngram-D@1`): weight sqrt(count), words and n-grams in one sum.
 * `createTfidfHashedEmbedder` (v2, `hashed-tfidf-D@2`, the engine default): TF-IDF feature hashing.
 * See its comment.
 */
export const HASHED_EMBEDDER_ID = 'hashed-ngram';
export const TFIDF_EMBEDDER_ID = 'hashed-tfidf';

const BUCKET_SEED = 0x9747b28c;
const SIGN_SEED = 0x5bd1e995;
const NUMERIC = /^[\d.,:]+$/;
const DEFAULT_ANALYZER: AnalyzerConfig = { lowercase: true, stopwords: true, stemmer: 'porter' };

function checkDims(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions <= 0)
    throw new RangeError(`dimensions must be a positive integer`);
}

/** Raw feature counts of a text, added into `words` / `chars` with multiplier `mult` (field weight). */
function countFeatures(
  an: Analyzer,
  text: string,
  mult: number,
  words: Map<string, number>,
  chars: Map<string, number>,
  dropNumbers = false,
): void {
  for (const w of an.analyze(text)) {
    if (dropNumbers && NUMERIC.test(w)) continue;
    words.set('w:' + w, (words.get('w:' + w) ?? 0) + mult);
  }
  for (const raw of tokenize(text)) {
    if (dropNumbers && NUMERIC.test(raw)) continue;
    const word = '<' + raw.toLowerCase() + '>';
    const grams: string[] = [];
    for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= word.length; i++) grams.push(word.slice(i, i + n));
    if (grams.length === 0) continue;
    const share = mult / grams.length;
    for (const g of grams) chars.set('c:' + g, (chars.get('c:' + g) ?? 0) + share);
  }
}

/** Hash weighted features into `acc` (scaled by `scale`); returns nothing. Map order is a pure function of the text. */
function hashInto(acc: Float64Array, feats: Map<string, number>, scale: number): void {
  const dims = acc.length;
  for (const [f, w] of feats) {
    const bucket = fmix32(fnv1a(f, BUCKET_SEED)) % dims;
    const sign = (fmix32(fnv1a(f, SIGN_SEED)) & 1) === 0 ? 1 : -1;
    acc[bucket] = (acc[bucket] as number) + sign * w * scale;
  }
}

function normalised(acc: Float64Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < acc.length; i++) norm += (acc[i] as number) * (acc[i] as number);
  const out = new Float32Array(acc.length);
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < acc.length; i++) out[i] = (acc[i] as number) * inv;
  }
  return out;
}

/** v1: sqrt-dampened counts of words and n-grams in one sum. Kept for callers that pinned it. */
export function createHashedEmbedder(
  dimensions = 768,
  analyzer: AnalyzerConfig = DEFAULT_ANALYZER,
): Embedder {
  checkDims(dimensions);
  const an = createAnalyzer(analyzer);
  return {
    id: `${HASHED_EMBEDDER_ID}-${dimensions}@1`,
    dimensions,
    embed(text: string): Float32Array {
      const words = new Map<string, number>();
      const chars = new Map<string, number>();
      countFeatures(an, text, 1, words, chars);
      const all = new Map<string, number>();
      for (const [f, w] of words) all.set(f, Math.sqrt(w));
      for (const [f, w] of chars) all.set(f, Math.sqrt(w));
      const acc = new Float64Array(dimensions);
      hashInto(acc, all, 1);
      return normalised(acc);
    },
  };
}

export interface TfidfEmbedderOptions {
  dimensions?: number;
  analyzer?: AnalyzerConfig;
  /** share of the squared norm given to the word block (the rest goes to char n-grams) */
  wordShare?: number;
  /** multiplier on title counts when a record is embedded by fields */
  titleWeight?: number;
  /** exponent of idf on the document side (`embedFields`): 0 = SMART lnc.ltc, 1 = ltc.ltc; queries use idf */
  docIdfPower?: number;
  /** leave tokens made only of digits and . , : out of the hashed features */
  dropNumbers?: boolean;
}

/**
 * Defaults of the v2 embedder, chosen on Cranfield and CACM only (highest mean cosine P@1 of the two;
 * `SWEEP=1 node dist/benchmarks/semantic-calibration.js`), never on the Lumen set.
 */
export const TFIDF_DEFAULTS = { wordShare: 0.7, titleWeight: 2, docIdfPower: 0, dropNumbers: true } as const;

/**
 * v2 default embedder: TF-IDF-weighted lexical feature hashing (still lexical hashing, not a neural
 * model). Document frequencies come from the collection the engine is built on (`documents`, read
 * once, on the first embed, so lexical-only users never pay for it); df is a count per feature, so
 * it does not depend on record order.
 * - Weighting is SMART lnc.ltc by default: a record's feature weight is sub(tf) (no idf), a query's
 *   is sub(tf) * idf, with sub(tf) = tf for tf <= 1 (fractional n-gram shares) else 1 + ln tf, and
 *   idf = ln(1 + (N - df + 0.5) / (df + 0.5)) (Robertson-Sparck Jones as in BM25: near 0 for a feature
 *   in every record, largest for one the collection never saw). Putting idf on one side only keeps
 *   rare junk in long records (citation numbers, ids) from dominating their vectors, which with 768
 *   hash buckets turns into collision noise.
 * - Tokens made only of digits and `. , :` are not features (dropNumbers): many distinct numbers
 *   collide in 768 buckets; numbers still count in BM25 and in the exact-key fallback.
 * - The word block and the char n-gram block are hashed and L2-normalised separately, then summed
 *   with weights sqrt(wordShare) and sqrt(1 - wordShare) and normalised again, so their balance does
 *   not depend on how many n-grams a text has.
 * - `embedFields` (records) counts title terms `titleWeight` times; `embed` is the query side.
 * Queries use the same df table (the engine's corpus), as TF-IDF retrieval does.
 */
export function createTfidfHashedEmbedder(
  documents: () => Iterable<EmbedderFields>,
  opts: TfidfEmbedderOptions = {},
): Embedder & { embedFields(fields: EmbedderFields): Float32Array } {
  const dimensions = opts.dimensions ?? 768;
  checkDims(dimensions);
  const o = {
    wordShare: opts.wordShare ?? TFIDF_DEFAULTS.wordShare,
    titleWeight: opts.titleWeight ?? TFIDF_DEFAULTS.titleWeight,
    docIdfPower: opts.docIdfPower ?? TFIDF_DEFAULTS.docIdfPower,
    dropNumbers: opts.dropNumbers ?? TFIDF_DEFAULTS.dropNumbers,
  };
  if (!(o.wordShare >= 0 && o.wordShare <= 1)) throw new RangeError('wordShare must be in [0, 1]');
  if (!(o.titleWeight > 0)) throw new RangeError('titleWeight must be positive');
  if (!(o.docIdfPower >= 0)) throw new RangeError('docIdfPower must be >= 0');
  const an = createAnalyzer(opts.analyzer ?? DEFAULT_ANALYZER);
  const count = (d: EmbedderFields, words: Map<string, number>, chars: Map<string, number>): void => {
    if (d.title) countFeatures(an, d.title, o.titleWeight, words, chars, o.dropNumbers);
    countFeatures(an, d.text, 1, words, chars, o.dropNumbers);
  };
  let stats: { n: number; df: Map<string, number> } | null = null;
  const getStats = (): { n: number; df: Map<string, number> } => {
    if (stats) return stats;
    const df = new Map<string, number>();
    let n = 0;
    for (const d of documents()) {
      n++;
      const words = new Map<string, number>();
      const chars = new Map<string, number>();
      count(d, words, chars);
      for (const f of words.keys()) df.set(f, (df.get(f) ?? 0) + 1);
      for (const f of chars.keys()) df.set(f, (df.get(f) ?? 0) + 1);
    }
    return (stats = { n, df });
  };
  const idf = (f: string): number => {
    const { n, df } = getStats();
    const x = df.get(f) ?? 0;
    return Math.log(1 + (n - x + 0.5) / (x + 0.5));
  };
  /** one block, hashed and L2-normalised; idf raised to `power` (0: no idf, no df lookup) */
  const block = (feats: Map<string, number>, power: number): Float64Array => {
    const weighted = new Map<string, number>();
    for (const [f, tf] of feats) {
      const sub = tf <= 1 ? tf : 1 + Math.log(tf);
      weighted.set(f, power === 0 ? sub : sub * idf(f) ** power);
    }
    const acc = new Float64Array(dimensions);
    hashInto(acc, weighted, 1);
    let norm = 0;
    for (let i = 0; i < dimensions; i++) norm += (acc[i] as number) * (acc[i] as number);
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < dimensions; i++) acc[i] = (acc[i] as number) * inv;
    }
    return acc;
  };
  const vector = (fields: EmbedderFields, power: number): Float32Array => {
    const words = new Map<string, number>();
    const chars = new Map<string, number>();
    count(fields, words, chars);
    const w = block(words, power);
    const c = block(chars, power);
    const a = Math.sqrt(o.wordShare);
    const b = Math.sqrt(1 - o.wordShare);
    const acc = new Float64Array(dimensions);
    for (let i = 0; i < dimensions; i++) acc[i] = a * (w[i] as number) + b * (c[i] as number);
    return normalised(acc);
  };
  const nonDefault = (Object.keys(o) as (keyof typeof o)[]).filter((k) => o[k] !== TFIDF_DEFAULTS[k]);
  return {
    // non-default settings are named in the id, so outputs say which variant produced them
    id:
      `${TFIDF_EMBEDDER_ID}-${dimensions}@2` +
      (nonDefault.length ? `(${nonDefault.map((k) => `${k}=${String(o[k])}`).join(',')})` : ''),
    dimensions,
    embed: (text: string) => vector({ text }, 1),
    embedFields: (fields: EmbedderFields) => vector(fields, o.docIdfPower),
  };
}
