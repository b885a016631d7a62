/**
 * Why the system says it fell back (report.fallback_reasons): every distinct (stage, reason) pair
 * over the answered requests that took a fallback, counted by requests and queries, with its first
 * request. Pure: arrival order does not reach it (observations are taken in (replay, query id)
 * order, pairs sorted by count, then stage, then reason: a total order).
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import type { FallbackReasonSummary, Observation } from '../src/documents/index.js';
import { tookFallback } from '../src/metrics/index.js';

/** A (stage, reason) pair while it is counted: the query ids as a set, its first request whole. */
interface Counting {
  stage: string | undefined;
  reason: string;
  requests: number;
  queryIds: Set<string>;
  firstSeen: Observation;
}

export function fallbackReasonSummary(
  observations: readonly Observation[],
  limit: number = SYSTEM_DEFAULTS.report_fallback_reason_lines,
): FallbackReasonSummary {
  const fell = observations
    .filter((o) => o.ok && tookFallback(o))
    .sort((a, b) => a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id));
  const pairs = new Map<string, Counting>();
  let unstated = 0;
  for (const o of fell) {
    const reason = o.fallback.reason;
    if (reason === undefined) {
      unstated++;
      continue;
    }
    const key = JSON.stringify([o.fallback.stage ?? null, reason]);
    const p = pairs.get(key);
    if (p) {
      p.requests++;
      p.queryIds.add(o.query_id);
    } else
      pairs.set(key, {
        stage: o.fallback.stage,
        reason,
        requests: 1,
        queryIds: new Set([o.query_id]),
        firstSeen: o,
      });
  }
  const sorted = [...pairs.values()].sort(
    (a, b) =>
      b.requests - a.requests ||
      compareCodeUnits(a.stage ?? '', b.stage ?? '') ||
      // a pair without a stage before one whose stage is the empty string: still a total order
      Number(a.stage !== undefined) - Number(b.stage !== undefined) ||
      compareCodeUnits(a.reason, b.reason),
  );
  return {
    fell_back: fell.length,
    unstated,
    reasons: sorted.slice(0, limit).map((p) => ({
      ...(p.stage !== undefined ? { stage: p.stage } : {}),
      reason: p.reason,
      requests: p.requests,
      queries: p.queryIds.size,
      first: { query_id: p.firstSeen.query_id, replay: p.firstSeen.replay },
    })),
    more_reasons: Math.max(0, sorted.length - limit),
  };
}
