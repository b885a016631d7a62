import type { CorpusRecord, RetrievalConfig } from '../documents/index.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import { indexText } from './indexed-corpus.js';
import { VectorIndex, type VectorHit } from './vector-index.js';
import type { Embedder, ErrorEnvelope, SelectRequest } from './types.js';

export function envelope(code: string, message: string, action: string): ErrorEnvelope {
  return { error: { code, message, action } };
}

/** The corpus matrix and a request's vector with its norm: what every semantic ranking starts from. */
export interface MatrixAndQuery {
  m: VectorIndex;
  q: Float32Array;
  qNorm: number;
}

/**
 * The vectors of semantic selection: the record matrix and the query vectors. A record's
 * `embedding` is used as given; records without one are embedded with the engine's embedder
 * (title + text). The matrix is built on the first semantic call (lexical-only users never pay for
 * it) and kept, and so is an error building it. Every vector must have config.embedding.dimensions
 * entries, else the error envelope `embedding_dimension_mismatch`; an HTTP embedder is never called
 * at run time (`embedding_not_pinned` for a vector it would have to fetch).
 */
export class SemanticVectors {
  private matrix: VectorIndex | ErrorEnvelope | null = null;
  private label: string | null = null;

  constructor(
    private readonly ic: IndexedCorpus,
    private readonly config: RetrievalConfig,
    private readonly embedder: Embedder,
  ) {}

  /** The corpus matrix and the request's vector, or the envelope saying why there is none. */
  matrixAndQuery(req: SelectRequest): MatrixAndQuery | ErrorEnvelope {
    const m = this.getMatrix();
    if ('error' in m) return m;
    const q = this.queryVector(req, m.dims);
    if ('error' in q) return q;
    return { m, q, qNorm: VectorIndex.norm(q) };
  }

  /** Cosine top-k (k already clamped) of the records semantic selection may return. */
  topK(req: SelectRequest, k: number): ({ hits: VectorHit[] } & MatrixAndQuery) | ErrorEnvelope {
    const v = this.matrixAndQuery(req);
    if ('error' in v) return v;
    return { ...v, hits: v.m.topK(v.q, k, { exclude: this.ic.withheld }) };
  }

  /** Where the vectors come from, for every answer; constant for the index's life, so computed once. */
  embedderLabel(): string {
    this.label ??= this.computeEmbedderLabel();
    return this.label;
  }

  private computeEmbedderLabel(): string {
    const e = this.config.embedder;
    if (e?.type === 'http') return `snapshot-vectors:${e.api}:${e.model}`;
    const given = this.ic.records.some((r) => r.embedding !== undefined);
    return given ? `snapshot-vectors+${this.embedder.id}` : this.embedder.id;
  }

  private getMatrix(): VectorIndex | ErrorEnvelope {
    if (this.matrix) return this.matrix;
    const dims = this.config.embedding.dimensions;
    const recs = this.ic.records;
    const needsEmbedder = recs.some((r) => r.embedding === undefined);
    if (needsEmbedder && this.config.embedder?.type === 'http') {
      const r = recs.find((x) => x.embedding === undefined) as CorpusRecord;
      return (this.matrix = envelope(
        'embedding_not_pinned',
        `config.embedder is an HTTP server (${this.config.embedder.model}), and corpus record "${r.id}" has no pinned embedding`,
        'run `rgate freeze <set>`: it fetches and pins every vector; runs never call the server',
      ));
    }
    if (needsEmbedder && this.embedder.dimensions !== dims) {
      return (this.matrix = envelope(
        'embedding_dimension_mismatch',
        `embedder ${this.embedder.id} produces ${this.embedder.dimensions} dimensions, config.embedding.dimensions is ${dims}`,
        'use an embedder with the configured dimensions or change config.embedding.dimensions',
      ));
    }
    const index = new VectorIndex(recs.length, dims);
    for (let d = 0; d < recs.length; d++) {
      const r = recs[d] as CorpusRecord;
      let v: ArrayLike<number>;
      if (r.embedding !== undefined) {
        if (r.embedding.length !== dims) {
          return (this.matrix = envelope(
            'embedding_dimension_mismatch',
            `corpus record "${r.id}" has a ${r.embedding.length}-dimension embedding, expected ${dims}`,
            're-embed the corpus with the configured model or change config.embedding.dimensions',
          ));
        }
        v = r.embedding;
      } else {
        v = this.embedder.embedFields
          ? this.embedder.embedFields(r.title ? { title: r.title, text: r.text } : { text: r.text })
          : this.embedder.embed(indexText(r));
      }
      index.setRow(d, v);
    }
    return (this.matrix = index);
  }

  private queryVector(req: SelectRequest, dims: number): Float32Array | ErrorEnvelope {
    if (req.query_embedding !== undefined) {
      if (req.query_embedding.length !== dims) {
        return envelope(
          'embedding_dimension_mismatch',
          `query embedding has ${req.query_embedding.length} dimensions, expected ${dims}`,
          'embed the query with the same model as the corpus',
        );
      }
      return Float32Array.from(req.query_embedding);
    }
    if (this.config.embedder?.type === 'http')
      return envelope(
        'embedding_not_pinned',
        `config.embedder is an HTTP server (${this.config.embedder.model}); this query has no pinned embedding`,
        'only queries of the frozen query set carry vectors; run `rgate freeze <set>` after adding queries',
      );
    if (this.embedder.dimensions !== dims) {
      return envelope(
        'embedding_dimension_mismatch',
        `embedder ${this.embedder.id} produces ${this.embedder.dimensions} dimensions, expected ${dims}`,
        'use an embedder with the configured dimensions',
      );
    }
    return this.embedder.embed(req.query ?? '');
  }
}
