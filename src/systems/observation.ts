import type { QueryRecord } from '../documents/index.js';
import type { NormalizedResponse } from './normalize/index.js';
import type { RawObservation, RequestContext } from './types.js';

/** Stamp a normalized response with what the adapter knows: query id, latency, budgets and profile in force. */
export function toRawObservation(
  q: QueryRecord,
  ctx: RequestContext,
  r: NormalizedResponse,
  latencyMs: number,
  /** a successful request's stderr as warning lines (stderrWarnings) */
  warnings?: readonly string[],
): RawObservation {
  const b = ctx.config.budgets;
  const budgets =
    b && (b.max_files !== undefined || b.max_chars_per_file !== undefined || b.tokens !== undefined)
      ? { ...b }
      : undefined;
  return {
    query_id: q.query_id,
    ok: r.ok,
    ...(r.error ? { error: r.error } : {}),
    ...(r.selection_mode ? { selection_mode: r.selection_mode } : {}),
    ...(r.selected_id !== undefined ? { selected_id: r.selected_id } : {}),
    ...(r.source_path !== undefined ? { source_path: r.source_path } : {}),
    ...(r.no_match_reason !== undefined ? { no_match_reason: r.no_match_reason } : {}),
    ranked: r.ranked,
    ...(r.unranked ? { unranked: r.unranked } : {}),
    fallback: r.fallback,
    usage: r.usage,
    // latency is timing, never part of a fingerprint; rounded so reports do not carry float noise
    latency_ms: Math.round(latencyMs * 1000) / 1000,
    contract: r.contract,
    ...(budgets ? { budgets } : {}),
    profile: q.profile ?? ctx.config.retrieval_profile,
    ...(r.ku ? { ku: r.ku } : {}),
    // a failed request's stderr is its error's; only an answer's stderr is a warning
    ...(r.ok && warnings?.length ? { warnings: [...warnings] } : {}),
  };
}
