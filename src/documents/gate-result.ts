import { Type, type Static } from '@sinclair/typebox';
import { Closed, Pair, OrNull, StringEnum } from './keywords.js';
import { DetectableSchema } from './detectable.js';
import { QuantileNameSchema } from './measure-value.js';

/**
 * PASS, WATCH and FAIL are a gate's; NONE is a run no gate judged (its suite names none): it is
 * neither a pass nor a failure, and nothing that reads verdicts may count it as either.
 */
export const VERDICTS = ['PASS', 'WATCH', 'FAIL', 'NONE'] as const;
export const VerdictSchema = StringEnum(VERDICTS);

/** The gate id of a run no gate judged (its verdict NONE; reports before NONE said PASS beside it). */
export const NO_GATE_ID = 'measures-only';

/** The verdict a store keeps for a finished run: NONE for the no-gate id, whatever an older rgate sent. */
export function verdictAsStored(gateId: string, verdict: Verdict): Verdict {
  return gateId === NO_GATE_ID ? 'NONE' : verdict;
}

/**
 * A report's gate as it reads today: a no-gate report written before NONE existed carries verdict
 * PASS beside the no-gate id and no rule; it is read as NONE, so no reader counts it a pass.
 */
export function gateAsRead<G extends { gate_id: string; verdict: Verdict; rules: readonly unknown[] }>(
  g: G,
): G {
  return g.gate_id === NO_GATE_ID && g.rules.length === 0 && g.verdict === 'PASS'
    ? { ...g, verdict: 'NONE' }
    : g;
}
export type Verdict = Static<typeof VerdictSchema>;

export const RuleStatusSchema = StringEnum(['pass', 'watch', 'fail']);
export type RuleStatus = Static<typeof RuleStatusSchema>;

const count = Type.Integer({ minimum: 0 });

/** One gate rule as evaluated: what was compared with what, and why it passed, watched or failed. */
export const RuleResultSchema = Closed({
  metric: Type.String(),
  /** min: observed must be >= threshold; max: observed must be <= threshold */
  op: StringEnum(['min', 'max']),
  threshold: Type.Number(),
  /** the compared number: a rate, a mean, a quantile, or a ratio/delta against the baseline */
  observed: OrNull(Type.Number()),
  numerator: Type.Optional(count),
  denominator: Type.Optional(count),
  n: Type.Optional(count),
  watch_band: Type.Optional(Pair(Type.Number())),
  baseline: Type.Optional(
    Closed({
      value: OrNull(Type.Number()),
      source: Type.String(),
      comparison: StringEnum(['uplift', 'not_below', 'delta']),
    }),
  ),
  /** timing rules: the order statistic compared and, with per 'profile', that every profile was checked */
  quantile: Type.Optional(QuantileNameSchema),
  per: Type.Optional(StringEnum(['profile'])),
  status: RuleStatusSchema,
  reason: Type.String(),
  /**
   * a failing top-1 rule that the unjudged top-1s could still carry past its threshold (were they all
   * judged useful): the failure rests on missing judgments, not on what was judged
   */
  undecided: Type.Optional(Type.Boolean()),
  /**
   * a rule that failed for want of evidence, not on its value: 'none' (nothing was counted), 'too_few'
   * (fewer counted than its minimum), 'replays' (fewer replays than its minimum). Absent otherwise
   */
  insufficient: Type.Optional(StringEnum(['none', 'too_few', 'replays'])),
  /**
   * the smallest change of the compared value this rule's evidence could detect (a drop for a min
   * rule, a rise for a max rule) at 80% power and alpha 0.05. Absent for timing and query-count rules,
   * where nothing was counted, and in reports written before it existed
   */
  detectable: Type.Optional(DetectableSchema),
  /**
   * a top-1 rate rule's judgment holes: the benchmark top-1s no judgment covers, or that the qrels
   * count not relevant only for want of a line (grading a query with no judgment at all adds it to
   * the denominator), and the
   * rate if every one were graded not useful (low) or useful (high); can_flip when either would
   * change the rule's status. A ranking measure's rule states its own (depth below). Absent for
   * other rules and in reports written before it existed
   */
  holes: Type.Optional(
    Closed({
      unjudged: count,
      low: Type.Number(),
      high: Type.Number(),
      can_flip: Type.Boolean(),
      /**
       * a ranking measure's rule (absent for a top-1 rule): the rank cutoff its holes were looked
       * for within, null for the whole ranking (map, ndcg ...). unjudged counts the (query, document)
       * pairs there; low is the compared value with every one graded 0, high with every one graded
       * top_grade, each the measure scored again. A relevant hole can lower a measure whose ideal it
       * raises (nDCG, recall's denominator), so high may be below low
       */
      depth: Type.Optional(OrNull(count)),
      /** the grade a relevant hole was given: the set's highest grade, at least the relevance level */
      top_grade: Type.Optional(Type.Number()),
    }),
  ),
});
export type RuleResult = Static<typeof RuleResultSchema>;

export const ChecklistItemSchema = Closed({
  id: Type.String(),
  text: Type.String(),
  ok: Type.Boolean(),
  evidence: Type.String(),
});
export type ChecklistItem = Static<typeof ChecklistItemSchema>;

/**
 * A rule against the base branch's run (a policy's `vs_base` rule) as a run's report carries it:
 * what the policy asks (alpha resolved to its default), and why it was not judged with the others.
 * The server judges it on upload from these fields (it has no policy file).
 */
export const VsBaseRuleEntrySchema = Closed({
  metric: Type.String(),
  /** the largest drop of the run's mean below the base run's that passes, in the measure's units */
  max_drop: Type.Number({ minimum: 0 }),
  /** a drop above max_drop fails only when the paired test calls it significant at alpha */
  significant: Type.Boolean(),
  alpha: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
  description: Type.Optional(Type.String()),
  /** why it is not evaluated in this report: only the server holds the base run */
  reason: Type.String(),
});
export type VsBaseRuleEntry = Static<typeof VsBaseRuleEntrySchema>;

/** What the server's judgment of a vs-base rule (or of all of them) came to. */
export const VS_BASE_VERDICTS = ['PASS', 'FAIL', 'NOT_EVALUATED'] as const;
export const VsBaseVerdictSchema = StringEnum(VS_BASE_VERDICTS);
export type VsBaseVerdict = Static<typeof VsBaseVerdictSchema>;

const nullableNumber = OrNull(Type.Number());

/** One vs-base rule as the server judged it against the base run, with the paired test's figures. */
export const VsBaseRuleResultSchema = Closed({
  metric: Type.String(),
  max_drop: Type.Number(),
  significant: Type.Boolean(),
  alpha: Type.Number(),
  /** the base run's and this run's mean over the queries both measured (null: no such query) */
  base: nullableNumber,
  run: nullableNumber,
  /** run - base */
  delta: nullableNumber,
  /** the drop in the measure's better direction (base - run when higher is better), > 0 a loss */
  drop: nullableNumber,
  /** the paired test's two-sided p (the vs-base page's test, before Holm's correction) */
  p: nullableNumber,
  /** the queries both runs measured */
  n: count,
  verdict: VsBaseVerdictSchema,
  reason: Type.String(),
});
export type VsBaseRuleResult = Static<typeof VsBaseRuleResultSchema>;

/**
 * The vs-base rules of a run judged on upload: FAIL when any rule fails, PASS when every rule was
 * judged and passed, NOT_EVALUATED otherwise (no base run, or a rule the paired test has no values for).
 */
export const VsBaseGateSchema = Closed({
  verdict: VsBaseVerdictSchema,
  /** the base run compared with, or null when there is none */
  base_run_id: OrNull(Type.String()),
  /** why that base run (or why none) */
  why: Type.String(),
  rules: Type.Array(VsBaseRuleResultSchema),
});
export type VsBaseGate = Static<typeof VsBaseGateSchema>;

export const GateResultSchema = Closed({
  gate_id: Type.String(),
  gate_version: Type.String(),
  verdict: VerdictSchema,
  /**
   * what a FAIL is about (absent unless FAIL): 'judgments' when every failing rule is a judgment
   * completeness rule (judged_top1, judged@10) or undecided for lack of judgments, so the fixture needs
   * grading before the verdict says anything about the system; 'queries' when every failing rule
   * fails only for want of evidence the query set is too small to give (fewer queries than the gate's
   * minimum, every top-1 judged): more queries, not grading, would let the gate judge; 'system'
   * otherwise
   */
  cause: Type.Optional(StringEnum(['system', 'judgments', 'queries'])),
  /**
   * the run itself overruled the rules (absent when it completed): the system under test was down,
   * the run was interrupted, or a partial run was reported as it stood. Its rules were measured on
   * what was observed, so no rule's pass or fail is a verdict; reasons[0] says what happened
   */
  overruled: Type.Optional(StringEnum(['down', 'interrupted', 'partial'])),
  rules: Type.Array(RuleResultSchema),
  /**
   * the policy's rules against the base branch's run, not evaluated in the run (they change no
   * verdict here): the server judges them on upload. Absent when the policy has none
   */
  vs_base_rules: Type.Optional(Type.Array(VsBaseRuleEntrySchema)),
  /**
   * the unjudged (query, document) pairs whose grade could change the verdict (empty: none can,
   * grade them or not): the holes of every rule that can flip when the verdict can, in query then
   * document id order. Absent without a top-1 rate or ranking measure rule, for an overruled run and
   * in reports written before it existed
   */
  verdict_pairs: Type.Optional(Type.Array(Closed({ query_id: Type.String(), doc_id: Type.String() }))),
  reasons: Type.Array(Type.String()),
  checklist: Type.Array(ChecklistItemSchema),
});
export type GateResult = Static<typeof GateResultSchema>;
