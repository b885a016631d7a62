import { validateRetrievalResultV1 } from '../../contracts/responses/retrieval-result-v1.js';
import type { RetrievalResultV1Response } from '../../documents/index.js';
import { estimateTokens, type ResponseNormalizer } from './types.js';

/**
 * retrieval-result-v1 (seed 003). Ranked: id = `chunk_id`, source_path = `document_id`, score as given
 * (similarity). An empty result is a no_match. Usage: files = distinct document_ids, chars = sum of
 * `text_content` lengths, tokens = ceil(chars / 4).
 */
export const retrievalResultV1Normalizer: ResponseNormalizer<RetrievalResultV1Response> = {
  validate: validateRetrievalResultV1,
  crossCheck(p) {
    const out: string[] = [];
    if (p.k_returned !== p.results.length)
      out.push(`/k_returned: must equal the number of results (${p.results.length})`);
    if (p.results.length > p.k_requested)
      out.push(`/results: must not hold more than k_requested (${p.k_requested}) items`);
    p.results.forEach((r, i) => {
      if (r.rank !== i + 1) out.push(`/results/${i}/rank: must be ${i + 1} (rank 1..k in order)`);
    });
    return out;
  },
  toObservation(p) {
    const ranked = p.results.map((r) => ({
      id: r.chunk_id,
      source_path: r.document_id,
      score: r.score,
      chars: r.text_content.length,
    }));
    const chars = ranked.reduce((s, r) => s + r.chars, 0);
    const top = ranked[0];
    return {
      ...(top
        ? { selected_id: top.id, source_path: top.source_path }
        : { selection_mode: 'no_match' as const, no_match_reason: 'k_returned is 0' }),
      ranked,
      fallback: { triggered: false },
      usage: {
        files: new Set(p.results.map((r) => r.document_id)).size,
        chars,
        tokens: estimateTokens(chars),
      },
    };
  },
  rankedIdPath(_p, i) {
    return `/results/${i}/chunk_id`;
  },
};
