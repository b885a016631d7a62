import type { CorpusRecord } from '../documents/index.js';
import { sha256 } from '../core/hash.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import { envelope, type SemanticVectors } from './semantic-vectors.js';
import type { ErrorEnvelope, RetrievalResultV1, SelectRequest } from './types.js';

/**
 * The retrieval-result-v1 view (seed 003): the cosine top-k (k already clamped) of the records
 * semantic selection may return, as chunks with ranks 1..k. The contract fixes 768 dimensions.
 */
export function retrievalResult(
  ic: IndexedCorpus,
  dims: number,
  vectors: SemanticVectors,
  req: SelectRequest,
  k: number,
): RetrievalResultV1 | ErrorEnvelope {
  if (dims !== 768) {
    return envelope(
      'embedding_dimension_mismatch',
      `retrieval-result-v1 requires 768-dimension embeddings, config.embedding.dimensions is ${dims}`,
      'set config.embedding.dimensions to 768',
    );
  }
  const top = vectors.topK(req, k);
  if ('error' in top) return top;
  const recs = ic.records;
  return {
    schema_version: '1.0.0',
    query_embedding_dimensions: dims,
    k_requested: k,
    k_returned: top.hits.length,
    query_hash: sha256(req.query ?? ''),
    score_semantics: 'cosine_similarity',
    results: top.hits.map((h, i) => {
      const r = recs[h.doc] as CorpusRecord;
      return {
        chunk_id: r.id,
        document_id: r.parent_id ?? r.source_path,
        text_content: r.text,
        page: null,
        section: r.title ?? null,
        coordinates: null,
        rank: i + 1,
        score: h.score,
      };
    }),
  };
}
