import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum, StringMap } from './keywords.js';
import { QueryErrorSchema } from './error-summary.js';
import { ProfileSchema } from './profile.js';
import { SelectionModeSchema } from './selection-mode.js';

export const Top1JudgmentSchema = StringEnum(['useful', 'not_useful', 'unjudged', 'error', 'no_answer']);
export type Top1Judgment = Static<typeof Top1JudgmentSchema>;

const strings = Type.Array(Type.String());

/** One query, as the report shows it (replay 1 for the answer, all replays for stability). */
export const QueryOutcomeSchema = Closed({
  query_id: Type.String(),
  text: Type.String(),
  profile: Type.Optional(ProfileSchema),
  kind: StringEnum(['benchmark', 'probe']),
  tags: Type.Optional(strings),
  expected: Closed({
    selection_mode: Type.Optional(SelectionModeSchema),
    no_match: Type.Optional(Type.Boolean()),
    useful_ids: Type.Optional(strings),
    useful_paths: Type.Optional(strings),
    /** qrels ids at or above the relevance level (grade desc, then id): what a qrels-judged query wants */
    relevant_ids: Type.Optional(strings),
  }),
  actual: Closed({
    ok: Type.Boolean(),
    error: Type.Optional(Type.String()),
    selection_mode: Type.Optional(SelectionModeSchema),
    selected_id: Type.Optional(Type.String()),
    source_path: Type.Optional(Type.String()),
    top_ids: strings,
    /**
     * the entries the answer carried that the suite's `ranked_entries` left out of the ranking (a
     * context-load answer's control-plane files), every one, in answer order; absent when none
     */
    unranked_ids: Type.Optional(strings),
    fallback_stage: Type.Optional(Type.String()),
    /** why the system says it fell back (its Observation `fallback.reason`), when it took one and said */
    fallback_reason: Type.Optional(Type.String()),
  }),
  top1: Top1JudgmentSchema,
  /** which judgment decided top1: qrels, useful_ids, useful_paths, rules, excluded_tag */
  top1_by: Type.Optional(Type.String()),
  /**
   * the query has at least one judgment (qrels, useful_ids, useful_paths or an include rule): a
   * benchmark query that has one is in the top-1 rates' denominator whatever its top-1; false: no
   * top-1 measure counts it
   */
  judged: Type.Optional(Type.Boolean()),
  /** probe queries: did the answer meet the expectation */
  expectation_met: Type.Optional(Type.Boolean()),
  /** a probe this system cannot take (no way to receive its input): why; its expectation is not measured */
  not_applicable: Type.Optional(Type.String()),
  /**
   * replay_determinism's value for the query: true when every planned replay was observed and gave
   * the same fingerprint; false when two observed replays differ
   */
  deterministic: Type.Boolean(),
  /**
   * false when the run did not observe every planned replay of this query and the ones it did
   * observe agree: determinism is then not shown either way, and `deterministic` (false) is no
   * finding. Absent when the evidence is complete
   */
  determinism_shown: Type.Optional(Type.Boolean()),
  /** the query's first error (lowest replay that errored), its class and text; absent when none erred */
  first_error: Type.Optional(QueryErrorSchema),
  leaked_tags: Type.Optional(strings),
  /** per-query ranking measures, e.g. {"ndcg_cut.5": 0.63} */
  measures: Type.Optional(StringMap(Type.Number())),
  /**
   * why the query counts against the run, a few words each (empty: it does not), decided once by the
   * harness; renderers only show them. Absent in reports older than the field (readers upgrade those).
   */
  failure_reasons: Type.Optional(strings),
});
export type QueryOutcome = Static<typeof QueryOutcomeSchema>;
