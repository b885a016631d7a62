import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringMap } from './keywords.js';
import { KuObservationSchema } from './ku-observation.js';
import { ProfileSchema } from './profile.js';
import { BudgetsSchema } from './retrieval-config.js';
import { SelectionModeSchema } from './selection-mode.js';

export const RankedItemSchema = Closed({
  id: Type.String(),
  source_path: Type.String(),
  score: Type.Number(),
  score_breakdown: Type.Optional(StringMap(Type.Number())),
  tags: Type.Optional(Type.Array(Type.String())),
  /** characters of the item that were emitted (after truncation) */
  chars: Type.Optional(Type.Number()),
  /** how the system says it chose the item (context-load `selected_by`: `task:default:specs/*.md`) */
  selected_by: Type.Optional(Type.String()),
  /**
   * the text the answer emitted for the item, its first 6000 characters (context-load `excerpt`,
   * `text` or `content`): what a rule-judged peer figure (the cortex Phase 2 harness) reads
   */
  excerpt: Type.Optional(Type.String()),
});
export type RankedItem = Static<typeof RankedItemSchema>;

export const ObservationErrorSchema = Closed({
  /** e.g. timeout, crash, non_json, contract_invalid, http_status, spawn_failed, embedding_dimension_mismatch */
  kind: Type.String(),
  message: Type.String(),
  stderr: Type.Optional(Type.String()),
});
export type ObservationError = Static<typeof ObservationErrorSchema>;

/**
 * An entry the answer carried that the suite does not rank (context-load `ranked_entries`: cortex-coach's
 * control-plane files, `rank: null`), reported apart from the ranking.
 */
export const UnrankedEntrySchema = Closed({
  id: Type.String(),
  source_path: Type.String(),
  selected_by: Type.Optional(Type.String()),
});
export type UnrankedEntry = Static<typeof UnrankedEntrySchema>;

/** One request of one replay, normalised from whatever the system under test answered. */
export const ObservationSchema = Closed({
  query_id: Type.String(),
  replay: Type.Integer({ minimum: 1 }),
  ok: Type.Boolean(),
  error: Type.Optional(ObservationErrorSchema),
  selection_mode: Type.Optional(SelectionModeSchema),
  selected_id: Type.Optional(Type.String()),
  source_path: Type.Optional(Type.String()),
  /** a no_match answer that states its reason */
  no_match_reason: Type.Optional(Type.String()),
  ranked: Type.Array(RankedItemSchema),
  /** entries answered but not ranked (the suite's `ranked_entries` rule left them out), in answer order */
  unranked: Type.Optional(Type.Array(UnrankedEntrySchema)),
  fallback: Closed({
    triggered: Type.Boolean(),
    stage: Type.Optional(Type.String()),
    attempts: Type.Optional(Type.Array(Type.String())),
    /**
     * why the system says it fell back, in its own words (memory-cli's answer `reason`, context-load's
     * `reason`); only on a request that took a fallback and whose answer stated one. Not part of the
     * fingerprint: the text may carry a timing ("semantic latency 726 ms exceeded the 700 ms limit"),
     * and the outcome it explains (triggered, stage, attempts) already is.
     */
    reason: Type.Optional(Type.String()),
  }),
  usage: Closed({ files: Type.Number(), chars: Type.Number(), tokens: Type.Number() }),
  latency_ms: Type.Number({ minimum: 0 }),
  contract: Closed({ name: Type.String(), valid: Type.Boolean(), errors: Type.Array(Type.String()) }),
  /** budgets that applied to this request (so budget compliance can be checked after the fact) */
  budgets: Type.Optional(BudgetsSchema),
  profile: Type.Optional(ProfileSchema),
  /**
   * what a request that succeeded wrote on stderr, one normalised line each (timestamp and level word
   * off, repeats dropped, capped): a system that answers while degraded usually says so only there.
   * Absent when it wrote nothing (and for adapters without a stderr: builtin, http, worker mode).
   */
  warnings: Type.Optional(Type.Array(Type.String())),
  /** `resolved-intent` answers: the DS012 trace and units the KU measures read */
  ku: Type.Optional(KuObservationSchema),
  fingerprint: Type.String(),
});
export type Observation = Static<typeof ObservationSchema>;
