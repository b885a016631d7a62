import { SEMANTIC_DEFAULTS } from '../core/defaults.js';
import { bagOfWords } from './bm25-index.js';
import type { IndexedCorpus } from './indexed-corpus.js';
import type { MatrixAndQuery } from './semantic-vectors.js';
import type { VectorHit } from './vector-index.js';

/**
 * The hybrid_rrf ranking (memory-cli's `--mode hybrid`): two rankings, BM25 (the engine's lexical
 * index) and the cosine, each cut to its first rrf_depth records (a record with BM25 0 or cosine
 * <= 0 is in neither list: it carries no signal); fused(d) = sum over the lists of
 * 1 / (rrf_k + rank). Order: fused desc, cosine desc, BM25 desc, record (id) asc. Returns the top-k
 * with the normalised fused score fused / (2 / (rrf_k + 1)), in [0, 1] (1 when both rankings put a
 * record first, <= 0.5 when only one has it), and a lookup of any record's normalised fused score.
 */
export function hybridTopK(
  ic: IndexedCorpus,
  { m, q, qNorm }: MatrixAndQuery,
  query: string,
  k: number,
  rrfK: number,
): { hits: VectorHit[]; scoreOf: (doc: number) => number } {
  const depth = SEMANTIC_DEFAULTS.rrf_depth;
  const withheld = ic.withheld;
  const n = ic.records.length;
  const vector = m.topK(q, depth, { exclude: withheld, positiveOnly: true });
  let held = 0;
  for (let d = 0; d < n; d++) held += withheld[d] as number;
  const terms = bagOfWords(ic.analyzer.analyze(query));
  const bm = new Float64Array(n);
  const lexical = ic.index
    .search(terms, depth + held)
    .filter((h) => withheld[h.doc] === 0 && h.score > 0)
    .slice(0, depth);
  const fused = new Map<number, number>();
  lexical.forEach((h, i) => {
    bm[h.doc] = h.score;
    fused.set(h.doc, (fused.get(h.doc) ?? 0) + 1 / (rrfK + i + 1));
  });
  vector.forEach((h, i) => fused.set(h.doc, (fused.get(h.doc) ?? 0) + 1 / (rrfK + i + 1)));
  // the cosine tie-break, for the fused records only (a BM25-only one is scored here, exactly)
  const cos = new Map<number, number>(vector.map((h) => [h.doc, h.score]));
  for (const doc of fused.keys()) if (!cos.has(doc)) cos.set(doc, m.cosine(q, qNorm, doc));
  const best = 2 / (rrfK + 1);
  const hits = [...fused.entries()]
    .map(([doc, f]) => ({ doc, score: f / best }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        (cos.get(b.doc) as number) - (cos.get(a.doc) as number) ||
        (bm[b.doc] as number) - (bm[a.doc] as number) ||
        a.doc - b.doc,
    )
    .slice(0, k);
  return { hits, scoreOf: (doc) => (fused.get(doc) ?? 0) / best };
}
