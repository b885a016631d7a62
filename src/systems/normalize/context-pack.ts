import { validateContextPack } from '../../contracts/responses/context-pack.js';
import type { ContextPackResponse } from '../../documents/index.js';
import { estimateTokens, type ResponseNormalizer } from './types.js';

function itemId(it: ContextPackResponse['items'][number]): string {
  const rid = it.payload?.['record_id'] ?? it.payload?.['id'];
  return typeof rid === 'string' && rid !== '' ? rid : it.source;
}

/**
 * ContextPack (seed 004). Ranked: id = `payload.record_id` (or `payload.id`) when the service states it,
 * else the `source` path; source_path = `source`; `trust_class` becomes a tag. An empty pack is a
 * no_match. Usage: files = distinct sources, chars = `context_text` length, tokens = `usage.tokens`
 * when reported, else ceil(chars / 4).
 */
export const contextPackNormalizer: ResponseNormalizer<ContextPackResponse> = {
  validate: validateContextPack,
  crossCheck(p) {
    const out: string[] = [];
    p.items.forEach((it, i) => {
      if (it.offset_start !== undefined && it.offset_end !== undefined && it.offset_end < it.offset_start)
        out.push(`/items/${i}/offset_end: must not be below offset_start`);
    });
    return out;
  },
  toObservation(p) {
    const ranked = p.items.map((it) => ({
      id: itemId(it),
      source_path: it.source,
      score: it.score,
      ...(it.trust_class ? { tags: [it.trust_class] } : {}),
      ...(it.offset_start !== undefined && it.offset_end !== undefined
        ? { chars: it.offset_end - it.offset_start }
        : {}),
    }));
    const chars = p.context_text.length;
    const top = ranked[0];
    return {
      ...(top
        ? { selected_id: top.id, source_path: top.source_path }
        : { selection_mode: 'no_match' as const, no_match_reason: 'empty context pack' }),
      ranked,
      fallback: { triggered: false },
      usage: {
        files: new Set(p.items.map((it) => it.source)).size,
        chars,
        tokens: p.usage?.tokens ?? estimateTokens(chars),
      },
    };
  },
  rankedIdPath(_p, i) {
    return `/items/${i}`;
  },
};
