import type { CorpusRecord, RetrievalConfig } from '../documents/index.js';
import { bagOfWords } from './bm25-index.js';
import { contextLoad } from './context-load.js';
import { createTfidfHashedEmbedder } from './hashed-embedder.js';
import { buildIndexedCorpus } from './indexed-corpus.js';
import { resolveIntent } from './ku-context.js';
import { SemanticIndex } from './semantic.js';
import type { CreateEngineOptions, Engine, SearchHit } from './types.js';

/** The config keys plain BM25 search reads (its depth k comes with each request; see engine-reads.ts). */
export const BM25_READS: readonly string[] = ['k', 'analyzer', 'bm25'];

/**
 * Build an engine over a corpus snapshot. Construction analyses and indexes the corpus once (BM25);
 * semantic vectors are computed on the first semantic call. Inputs are never mutated: the engine
 * keeps its own id-sorted copy of the record list and a deep copy of the config.
 * Throws RgateError('input_invalid') for duplicate record ids.
 */
export function createEngine(
  corpus: readonly CorpusRecord[],
  config: RetrievalConfig,
  opts: CreateEngineOptions = {},
): Engine {
  const cfg: RetrievalConfig = JSON.parse(JSON.stringify(config)) as RetrievalConfig;
  const ic = buildIndexedCorpus(corpus, cfg);
  // default: TF-IDF hashing with df over the records semantic selection may return (withheld
  // records are left out so their words do not shape anyone's scores); computed on first use
  const embedder =
    opts.embedder ??
    createTfidfHashedEmbedder(
      function* () {
        for (let d = 0; d < ic.records.length; d++) {
          if (ic.withheld[d] === 1) continue;
          const r = ic.records[d] as CorpusRecord;
          yield r.title ? { title: r.title, text: r.text } : { text: r.text };
        }
      },
      { dimensions: cfg.embedding.dimensions, analyzer: cfg.analyzer },
    );
  const semantic = new SemanticIndex(ic, cfg, embedder);
  return {
    config: cfg,
    stats: () => ({
      documents: ic.index.docCount,
      terms: ic.dictionary.size,
      postings: ic.index.postDocs.length,
      tokens: ic.index.totalTokens,
      array_bytes: ic.index.arrayBytes(),
      vocabulary_bytes_estimate: ic.dictionary.bytesEstimate(),
    }),
    search(text: string, k: number): SearchHit[] {
      const hits = ic.index.search(bagOfWords(ic.analyzer.analyze(text)), Math.max(0, Math.floor(k)));
      return hits.map((h) => ({ id: (ic.records[h.doc] as CorpusRecord).id, score: h.score }));
    },
    contextLoad: (req) => contextLoad(ic, cfg, req),
    select: (req) => semantic.select(req),
    retrievalResult: (req) => semantic.retrievalResult(req),
    resolveIntent: (req) => resolveIntent(ic, cfg, req),
  };
}
