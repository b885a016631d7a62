import type { CorpusRecord, RetrievalConfig } from '../documents/index.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import { RgateError } from '../core/errors.js';
import { createAnalyzer, type Analyzer } from './analyzer.js';
import { Bm25Index } from './bm25-index.js';
import { TermDictionary } from './term-dictionary.js';

/**
 * The corpus as the engine holds it: records numbered in id order (so "doc number asc" is the id
 * tie-break and input record order cannot leak into any output), the analyzer, the BM25 index and
 * per-record values parsed once.
 */
export interface IndexedCorpus {
  readonly records: readonly CorpusRecord[];
  readonly analyzer: Analyzer;
  readonly index: Bm25Index;
  readonly dictionary: TermDictionary;
  /** 1 for records withheld by the sensitive-tag policy (never returned by context-load / semantic) */
  readonly withheld: Uint8Array;
  /** the sensitive tags in force, sorted */
  readonly sensitiveTags: readonly string[];
  /** captured_at as epoch ms (NaN when unparseable); parsed on first use (only context-load needs it) */
  readonly capturedMs: Float64Array;
}

/**
 * Tags whose records a context loader must not hand out (secrets, credentials, personal data).
 * Applied by context-load and semantic selection; plain BM25 `search` (ranking evaluation) is unfiltered.
 */
export const DEFAULT_SENSITIVE_TAGS: readonly string[] = ['credential', 'pii', 'secret'];

/** The text the lexical index sees: title and body (a title is part of what a reader searches). */
export function indexText(r: CorpusRecord): string {
  return r.title ? `${r.title}\n${r.text}` : r.text;
}

/** The config keys the BM25 index and its analyzer read (dotted paths; a path covers its sub-keys). */
export const INDEX_READS = ['analyzer', 'bm25', 'sensitive_tags'] as const;

export function buildIndexedCorpus(corpus: readonly CorpusRecord[], config: RetrievalConfig): IndexedCorpus {
  const records = corpus.slice();
  let sorted = true;
  for (let i = 1; i < records.length && sorted; i++)
    sorted = compareCodeUnits((records[i - 1] as CorpusRecord).id, (records[i] as CorpusRecord).id) < 0;
  if (!sorted) records.sort((a, b) => compareCodeUnits(a.id, b.id));
  for (let i = 1; i < records.length; i++) {
    if ((records[i] as CorpusRecord).id === (records[i - 1] as CorpusRecord).id) {
      throw new RgateError(
        'input_invalid',
        `corpus: duplicate record id "${(records[i] as CorpusRecord).id}"`,
        'record ids must be unique within a corpus snapshot',
      );
    }
  }
  const analyzer = createAnalyzer(config.analyzer);
  const dictionary = new TermDictionary(analyzer);
  const index = Bm25Index.build(
    records.length,
    (d, out) => dictionary.indexTerms(indexText(records[d] as CorpusRecord), out),
    dictionary,
    {
      k1: config.bm25.k1,
      b: config.bm25.b,
      formula: config.bm25.formula ?? 'lucene',
      lengthNorm: config.bm25.length_norm ?? 'exact',
    },
  );
  const sensitiveTags = [...new Set(config.sensitive_tags ?? DEFAULT_SENSITIVE_TAGS)].sort(compareCodeUnits);
  const withheld = new Uint8Array(records.length);
  if (sensitiveTags.length > 0) {
    const set = new Set(sensitiveTags);
    for (let d = 0; d < records.length; d++) {
      const tags = (records[d] as CorpusRecord).tags;
      if (tags && tags.some((t) => set.has(t))) withheld[d] = 1;
    }
  }
  let capturedMs: Float64Array | undefined;
  return {
    records,
    analyzer,
    index,
    dictionary,
    withheld,
    sensitiveTags,
    get capturedMs(): Float64Array {
      if (!capturedMs) {
        capturedMs = new Float64Array(records.length);
        for (let d = 0; d < records.length; d++)
          capturedMs[d] = Date.parse((records[d] as CorpusRecord).captured_at);
      }
      return capturedMs;
    },
  };
}
