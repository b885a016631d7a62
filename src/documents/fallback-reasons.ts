/**
 * Why the system under test says it fell back, over the run: every distinct (stage, reason) pair of
 * the answered requests that took a fallback, as the system stated it (Observation
 * `fallback.reason`), counted by requests and queries. A system that states no reason is counted
 * apart (`unstated`), never given one.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

export const FallbackReasonSummarySchema = Closed({
  /** answered requests that took a fallback (flagged by the system or answered in a fallback mode), all replays */
  fell_back: count,
  /** of those, the requests whose answer stated no reason */
  unstated: count,
  /**
   * each distinct (stage, reason), most frequent first (ties by stage, then reason, by code unit); at
   * most SYSTEM_DEFAULTS.report_fallback_reason_lines listed
   */
  reasons: Type.Array(
    Closed({
      /** the fallback stage the request ended in (Observation `fallback.stage`), when the system named one */
      stage: Type.Optional(Type.String()),
      /** the system's own words */
      reason: Type.String(),
      requests: count,
      queries: count,
      /** the first request that gave it, in (replay, query id) order */
      first: Closed({ query_id: Type.String(), replay: Type.Integer({ minimum: 1 }) }),
    }),
  ),
  /** distinct (stage, reason) pairs not listed */
  more_reasons: count,
});
export type FallbackReasonSummary = Static<typeof FallbackReasonSummarySchema>;
