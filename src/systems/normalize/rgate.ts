import { validateRgateResponse } from '../../contracts/responses/rgate.js';
import type { RgateResponse } from '../../documents/index.js';
import { estimateTokens, type ResponseNormalizer } from './types.js';

/**
 * rgate's own format. `results` (TREC style) is an alias of `ranked`. Usage: as stated, else
 * files = ranked items, chars = sum of item `chars`, tokens = ceil(chars / 4).
 * selected_id / source_path default to the top-ranked item unless the answer is no_match.
 */
export const rgateNormalizer: ResponseNormalizer<RgateResponse> = {
  validate: validateRgateResponse,
  crossCheck(p) {
    return p.ranked && p.results ? ['/results: must not be given together with ranked'] : [];
  },
  toObservation(p) {
    const items = p.ranked ?? p.results ?? [];
    const ranked = items.map((it) => ({
      id: it.id,
      source_path: it.source_path ?? '',
      score: it.score,
      ...(it.score_breakdown ? { score_breakdown: it.score_breakdown } : {}),
      ...(it.tags ? { tags: it.tags } : {}),
      ...(it.chars !== undefined ? { chars: it.chars } : {}),
    }));
    const noMatch = p.selection_mode === 'no_match';
    const top = noMatch ? undefined : ranked[0];
    const selected_id = p.selected_id === undefined ? top?.id : (p.selected_id ?? undefined);
    const source_path =
      p.source_path === undefined ? top?.source_path || undefined : (p.source_path ?? undefined);
    const chars = p.usage?.chars ?? ranked.reduce((s, r) => s + (r.chars ?? 0), 0);
    return {
      ...(p.selection_mode ? { selection_mode: p.selection_mode } : {}),
      ...(selected_id !== undefined ? { selected_id } : {}),
      ...(source_path !== undefined ? { source_path } : {}),
      ...(p.no_match_reason !== undefined ? { no_match_reason: p.no_match_reason } : {}),
      ranked,
      fallback: {
        triggered: p.fallback?.triggered ?? false,
        ...(p.fallback?.stage ? { stage: p.fallback.stage } : {}),
        ...(p.fallback?.attempts ? { attempts: p.fallback.attempts } : {}),
      },
      usage: {
        files: p.usage?.files ?? ranked.length,
        chars,
        tokens: p.usage?.tokens ?? estimateTokens(chars),
      },
    };
  },
  rankedIdPath(p, i) {
    return `/${p.ranked ? 'ranked' : 'results'}/${i}/id`;
  },
};
