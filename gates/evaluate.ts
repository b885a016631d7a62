/**
 * The gate evaluator: pure, from measured values and a policy to a verdict per rule and overall.
 * FAIL if any rule misses or its evidence is insufficient (a denominator of 0 or below the rule's
 * minimum is never a pass); WATCH if a met rule sits inside its watch band or a warn-level rule
 * misses (WATCH still passes CI); else PASS. Reasons are sentences that show what was counted.
 */
import type {
  ArtifactRefs,
  GateChecklistEntry,
  GatePolicy,
  GateResult,
  GateRule,
  MeasureValue,
  MetricEntry,
  PerQueryValues,
  RuleResult,
  RuleStatus,
  Verdict,
  VsBaseRuleEntry,
} from '../src/documents/index.js';
import { STATS_DEFAULTS } from '../src/core/defaults.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { withDetectable } from './detectable.js';
import { evaluateChecklist, probeHint, type ChecklistEvidence } from './checklist.js';
import { ms, num, pct, pctAgainst, signedNum, signedPct } from './format.js';
import { JUDGMENT_METRICS, TIMING_METRICS } from './metric-ids.js';

export type { ChecklistEvidence } from './checklist.js';

export interface GateInput {
  metrics: MetricEntry[];
  /** latency per scope: "all" for every request, other keys are profiles ("small" or "profile:small") */
  latency: Record<string, MeasureValue>;
  /** queries in the pinned query set */
  query_count: number;
  /** replays actually run */
  replays: number;
  artifacts: ArtifactRefs;
  /** a previous report's metrics; baseline rules FAIL without it */
  baseline?: { metrics: MetricEntry[]; source: string; per_query?: PerQueryValues };
  checklist_evidence: ChecklistEvidence;
  /** the suite's name, for the hint a judgment shortfall prints (`rgate label pool <suite>`) */
  suite?: string;
  /**
   * per-query values by metric (query id -> value), for the detectable effect of a mean rule, and
   * with the baseline's, of a baseline rule; rate rules read their counts
   */
  per_query?: PerQueryValues;
}

/** Measures counted over queries that fell back (or probe queries): no such query, no evidence. */
const FALLBACK_EVIDENCE = new Set(['fallback_determinism', 'fallback_expectation_met']);

/** Floating-point slack for comparisons: 40/50 against 0.8 must compare equal, not 1 ulp short. */
const EPS = 1e-12;

/** The top-1 rates: their denominator is judged_top1's, so unjudged top-1s bound what they could be. */
const TOP1_METRICS = new Set(['top1_useful_rate', 'top1_useful_any_mode']);

/** Evaluate a policy. Example: evaluateGate(loadGatePolicy('semantic-retrieval-v1', root), input).verdict */
export function evaluateGate(policy: GatePolicy, input: GateInput): GateResult {
  const debt = top1Debt(input);
  // a vs_base rule is judged by the server, against a run this one cannot see: it changes no verdict here
  const vsBase = policy.rules.filter((r) => r.vs_base !== undefined).map(vsBaseEntry);
  const rules: RuleResult[] = [
    queryCountRule(policy, input),
    ...policy.rules
      .filter((r) => r.vs_base === undefined)
      .map((r) =>
        withDetectable(
          withJudgmentDebt(evaluateRule(r, input), debt, input),
          input.per_query,
          input.baseline?.per_query,
        ),
      ),
  ];
  const checklist = evaluateChecklist(policy.checklist ?? [], input);
  const severityOf = new Map<string, GateChecklistEntry['severity']>(
    (policy.checklist ?? []).map((c) => [c.id, c.severity]),
  );

  const reasons: string[] = [];
  let fail = false;
  let watch = false;
  // judgment completeness first: every other figure rests on it
  const byJudgmentFirst = [
    ...rules.filter((r) => JUDGMENT_METRICS.includes(r.metric)),
    ...rules.filter((r) => !JUDGMENT_METRICS.includes(r.metric)),
  ];
  for (const r of byJudgmentFirst) {
    if (r.status === 'fail') fail = true;
    if (r.status === 'watch') watch = true;
    if (r.status !== 'pass') reasons.push(`${r.status.toUpperCase()} ${ruleLabel(r)}: ${r.reason}`);
  }
  for (const c of checklist) {
    if (c.ok) continue;
    const warnOnly = severityOf.get(c.id) === 'warn';
    if (warnOnly) watch = true;
    else fail = true;
    reasons.push(`${warnOnly ? 'WATCH' : 'FAIL'} checklist ${c.id}: ${c.evidence}`);
  }
  const verdict: Verdict = fail ? 'FAIL' : watch ? 'WATCH' : 'PASS';
  if (verdict === 'PASS') {
    reasons.push(
      `all ${rules.length} rules${vsBase.length ? ' evaluated here' : ''} met over ${input.query_count} queries and ${input.replays} replays` +
        (checklist.length ? `; ${checklist.length} checklist items verified` : ''),
    );
  }
  for (const v of vsBase) reasons.push(`NOT EVALUATED ${v.metric} vs base: ${v.reason}`);
  const deferred = vsBase.length ? { vs_base_rules: vsBase } : {};
  if (verdict !== 'FAIL')
    return {
      gate_id: policy.gate_id,
      gate_version: policy.version,
      verdict,
      rules,
      ...deferred,
      reasons,
      checklist,
    };
  // A FAIL is the fixture's when nothing failed but judgment completeness and top-1 rules that the
  // unjudged top-1s could still carry: grading, not the system, decides it. The headline goes first.
  const failing = rules.filter((r) => r.status === 'fail');
  // a judgment rule that was not measured at all is a broken run, not a fixture with holes
  // a judgment rule with nothing unjudged is short of units, not of judgments
  const onJudgments = (r: RuleResult) =>
    (JUDGMENT_METRICS.includes(r.metric) && r.denominator !== undefined && r.numerator !== r.denominator) ||
    r.undecided === true;
  const checklistOk = checklist.every((c) => c.ok || severityOf.get(c.id) === 'warn');
  // too few queries: every failing rule only counted fewer than its minimum (the query count
  // itself, or units a bigger set would bring), and no request failed (failed requests shrink the
  // counts too: then the system is the cause); grading has nothing to add there
  const errors = input.metrics.find((m) => m.id === 'error_rate')?.value;
  const shortOfQueries =
    failing.every((r) => r.insufficient === 'too_few') && !(errors?.kind === 'rate' && errors.numerator > 0);
  const cause =
    shortOfQueries && checklistOk
      ? 'queries'
      : failing.every(onJudgments) && checklistOk
        ? 'judgments'
        : 'system';
  const headline =
    cause === 'judgments'
      ? [judgmentHeadline(failing, debt, input)]
      : cause === 'queries'
        ? [queriesHeadline(failing, input)]
        : [];
  return {
    gate_id: policy.gate_id,
    gate_version: policy.version,
    verdict,
    cause,
    rules,
    ...deferred,
    reasons: [...headline, ...reasons],
    checklist,
  };
}

/** The sentence a run (which holds no base run) says of a vs_base rule. */
const VS_BASE_LOCAL_REASON =
  "judged by the server against the base branch's run on upload, not in this run's verdict";

function vsBaseEntry(r: GatePolicy['rules'][number]): VsBaseRuleEntry {
  const v = r.vs_base!;
  const significant = v.significant ?? true;
  const alpha = v.alpha ?? STATS_DEFAULTS.alpha;
  const test = significant ? ` that the paired test calls significant at alpha ${alpha}` : '';
  return {
    metric: r.metric,
    max_drop: v.max_drop,
    significant,
    alpha,
    ...(r.description !== undefined ? { description: r.description } : {}),
    reason: `${VS_BASE_LOCAL_REASON}: a drop of more than ${num(v.max_drop)} below the base run${test} fails it`,
  };
}

/** The unjudged top-1s, as judged_top1 counted them (its denominator is the top-1 rates'). */
interface Top1Debt {
  unjudged: number;
  counted: number;
}

function top1Debt(input: GateInput): Top1Debt | undefined {
  const v = input.metrics.find((m) => m.id === 'judged_top1')?.value;
  if (v?.kind !== 'rate' || v.denominator === 0) return undefined;
  return { unjudged: v.denominator - v.numerator, counted: v.denominator };
}

function poolHint(input: GateInput): string {
  return `run \`rgate label pool ${input.suite ?? '<suite>'} --modes all\``;
}

/** "too few queries (the query set, not the system, decides this FAIL): 10 queries, at least 50 required; ..." */
function queriesHeadline(failing: RuleResult[], input: GateInput): string {
  const count = failing.find((r) => r.metric === 'query_count');
  const what = count
    ? `${input.query_count} ${input.query_count === 1 ? 'query' : 'queries'}, at least ${count.threshold} required`
    : `every failing rule counted fewer than its minimum (${failing
        .map(
          (r) =>
            `${ruleLabel(r)} ${r.denominator !== undefined ? `${r.numerator}/${r.denominator}` : `n=${r.n ?? 0}`}`,
        )
        .join(', ')})`;
  return `too few queries (the query set, not the system, decides this FAIL): ${what}; add queries to the set (grading answers cannot supply them)`;
}

/** "insufficient judgments: 24 of 86 top-1s unjudged; run `rgate label pool semantic --modes all`" */
function judgmentHeadline(failing: RuleResult[], debt: Top1Debt | undefined, input: GateInput): string {
  const what: string[] = [];
  if (debt && debt.unjudged > 0) what.push(`${debt.unjudged} of ${debt.counted} top-1s unjudged`);
  for (const r of failing)
    if (r.metric !== 'judged_top1' && JUDGMENT_METRICS.includes(r.metric) && r.denominator !== undefined)
      what.push(`${r.metric} ${r.numerator}/${r.denominator}`);
  return `insufficient judgments (the fixture, not the system, decides this FAIL): ${what.join('; ') || 'judgment completeness below the gate'}; ${poolHint(input)}`;
}

/**
 * A judgment-completeness rule's shortfall names the fixture; a failing top-1 rule says whether its
 * unjudged top-1s could still carry it (then it is undecided: the failure rests on missing
 * judgments) or not even then (a failure on judged evidence).
 */
function withJudgmentDebt(r: RuleResult, debt: Top1Debt | undefined, input: GateInput): RuleResult {
  if (JUDGMENT_METRICS.includes(r.metric)) {
    if (r.status !== 'fail' || r.numerator === undefined || r.denominator === undefined) return r;
    // every unit judged, and still short: too few of them were counted, which grading cannot change
    if (r.numerator === r.denominator) return r;
    const unit = r.metric === 'judged_top1' ? 'top-1s' : 'ranked positions';
    return {
      ...r,
      reason: `insufficient judgments: ${r.denominator - r.numerator} of ${r.denominator} ${unit} unjudged (${r.reason}); ${poolHint(input)}`,
    };
  }
  if (
    !TOP1_METRICS.has(r.metric) ||
    r.status !== 'fail' ||
    r.baseline !== undefined ||
    r.op !== 'min' ||
    !debt ||
    debt.unjudged === 0 ||
    r.numerator === undefined ||
    r.denominator === undefined ||
    r.denominator < debt.counted
  )
    return r;
  const best = r.numerator + debt.unjudged;
  const bestText = `${best}/${r.denominator} = ${pct(best / r.denominator)}`;
  if (meets('min', best / r.denominator, r.threshold)) {
    return {
      ...r,
      undecided: true,
      reason: `${r.reason}; undecided: ${debt.unjudged === 1 ? '1 unjudged top-1 counts' : `${debt.unjudged} unjudged top-1s count`} as not useful, and judged useful ${debt.unjudged === 1 ? 'it' : 'they'} would make it ${bestText}`,
    };
  }
  return {
    ...r,
    reason: `${r.reason}, and would be even if ${debt.unjudged === 1 ? 'the 1 unjudged top-1 were' : `all ${debt.unjudged} unjudged top-1s were`} useful (${bestText})`,
  };
}

/** "top1_useful_rate", "recall.10 vs baseline", "latency_ms p95/profile". */
export function ruleLabel(r: RuleResult): string {
  if (r.quantile) return `${r.metric} ${r.quantile}${r.per === 'profile' ? '/profile' : ''}`;
  return r.metric + (r.baseline ? ' vs baseline' : '');
}

function queryCountRule(policy: GatePolicy, input: GateInput): RuleResult {
  const ok = input.query_count >= policy.min_queries && input.query_count > 0;
  return {
    metric: 'query_count',
    op: 'min',
    threshold: policy.min_queries,
    observed: input.query_count,
    n: input.query_count,
    status: ok ? 'pass' : 'fail',
    ...(ok ? {} : { insufficient: 'too_few' as const }),
    reason: ok
      ? `${input.query_count} queries, at least ${policy.min_queries} required`
      : `insufficient evidence: ${input.query_count} queries, at least ${Math.max(1, policy.min_queries)} required`,
  };
}

interface Observed {
  value: number | null;
  numerator?: number;
  denominator?: number;
  n?: number;
  /** evidence count: the denominator of a rate, n otherwise */
  count: number;
  kind: MeasureValue['kind'];
}

function observe(v: MeasureValue, rule: GateRule): Observed {
  switch (v.kind) {
    case 'rate':
      return {
        value: v.denominator > 0 ? v.rate : null,
        numerator: v.numerator,
        denominator: v.denominator,
        count: v.denominator,
        kind: 'rate',
      };
    case 'mean':
      return { value: v.n > 0 ? v.mean : null, n: v.n, count: v.n, kind: 'mean' };
    case 'quantiles':
      return { value: v.n > 0 ? v[rule.quantile ?? 'p95'] : null, n: v.n, count: v.n, kind: 'quantiles' };
  }
}

/** How a value of this kind prints in a reason. */
function show(kind: MeasureValue['kind'], x: number, against?: number): string {
  if (kind === 'rate') return against === undefined ? pct(x) : pctAgainst(x, against);
  if (kind === 'quantiles') return ms(x);
  return num(x);
}

function countText(o: Observed): string {
  return o.kind === 'rate' ? `${o.numerator}/${o.denominator}` : `n=${o.n}`;
}

function meets(op: 'min' | 'max', x: number, t: number): boolean {
  return op === 'min' ? x >= t - EPS : x <= t + EPS;
}

function evaluateRule(rule: GateRule, input: GateInput): RuleResult {
  const op: 'min' | 'max' = rule.min !== undefined ? 'min' : 'max';
  const threshold = (op === 'min' ? rule.min : rule.max) as number;
  const base: RuleResult = { metric: rule.metric, op, threshold, observed: null, status: 'fail', reason: '' };
  if (rule.watch_band) base.watch_band = [rule.watch_band[0], rule.watch_band[1]];
  const result = TIMING_METRICS.includes(rule.metric)
    ? evaluateTimingRule(rule, input, base)
    : evaluateMeasureRule(rule, input, base);
  return applySeverity(rule, result);
}

function fail(r: RuleResult, reason: string): RuleResult {
  return { ...r, status: 'fail', reason };
}

function evaluateMeasureRule(rule: GateRule, input: GateInput, base: RuleResult): RuleResult {
  const entry = input.metrics.find((m) => m.id === rule.metric);
  if (!entry) return fail(base, `not measured: this run has no ${rule.metric}`);
  const o = observe(entry.value, rule);
  const r: RuleResult = { ...base, observed: o.value };
  if (o.numerator !== undefined) r.numerator = o.numerator;
  if (o.denominator !== undefined) r.denominator = o.denominator;
  if (o.n !== undefined) r.n = o.n;

  const minDen = rule.min_denominator ?? 1;
  const hint = FALLBACK_EVIDENCE.has(rule.metric) ? `; ${probeHint(input.artifacts, input.metrics)}` : '';
  if (o.count === 0 || o.value === null) {
    return fail(
      { ...r, insufficient: 'none' },
      `insufficient evidence: ${countText(o)}, nothing was counted${hint}`,
    );
  }
  if (o.count < minDen) {
    return fail(
      { ...r, insufficient: 'too_few' },
      `insufficient evidence: ${countText(o)}, at least ${minDen} ${o.kind === 'rate' ? 'in the denominator' : 'samples'} required${hint}`,
    );
  }
  if (rule.min_replays !== undefined && input.replays < rule.min_replays) {
    return fail(
      { ...r, insufficient: 'replays' },
      `insufficient evidence: ${input.replays} replays, at least ${rule.min_replays} required`,
    );
  }
  if (rule.vs_baseline) return compareToBaseline(rule, input, r, o);

  const ok = meets(r.op, o.value, r.threshold);
  const headline = `${o.kind === 'rate' ? `${countText(o)} = ` : ''}${show(o.kind, o.value, r.threshold)}${o.kind === 'rate' ? '' : ` (${countText(o)})`}`;
  const bound = `the ${r.op === 'min' ? 'minimum' : 'maximum'} ${show(o.kind, r.threshold)}`;
  const replays = rule.min_replays !== undefined ? ` over ${input.replays} replays` : '';
  if (!ok) {
    return fail(r, `${headline}${replays} is ${r.op === 'min' ? 'below' : 'above'} ${bound}`);
  }
  return withBand(r, o.value, `${headline}${replays} meets ${bound}`, (x) => show(o.kind, x));
}

function withBand(r: RuleResult, x: number, reason: string, fmt: (x: number) => string): RuleResult {
  const band = r.watch_band;
  if (band && x >= band[0] - EPS && x <= band[1] + EPS) {
    return {
      ...r,
      status: 'watch',
      reason: `${reason}, inside the WATCH band ${fmt(band[0])}–${fmt(band[1])}`,
    };
  }
  return { ...r, status: 'pass', reason };
}

function compareToBaseline(rule: GateRule, input: GateInput, r: RuleResult, o: Observed): RuleResult {
  const comparison = rule.vs_baseline!;
  const cur = o.value as number;
  if (!input.baseline) {
    return fail(
      { ...r, observed: null, baseline: { value: null, source: '(none)', comparison } },
      `no baseline: ${rule.metric} ${show(o.kind, cur)} cannot be compared (pass --baseline <report.json>)`,
    );
  }
  const source = input.baseline.source;
  const entry = input.baseline.metrics.find((m) => m.id === rule.metric);
  const bo = entry ? observe(entry.value, rule) : undefined;
  if (!bo || bo.value === null) {
    return fail(
      { ...r, observed: null, baseline: { value: null, source, comparison } },
      `no baseline: ${source} has no measured ${rule.metric}`,
    );
  }
  const b = bo.value;
  const withBase: RuleResult = { ...r, baseline: { value: b, source, comparison } };
  if (comparison === 'uplift') {
    if (b === 0) {
      return fail(
        { ...withBase, observed: null },
        `baseline ${rule.metric} is 0, so a relative uplift is undefined`,
      );
    }
    const uplift = (cur - b) / b;
    const text = `${rule.metric} ${show(o.kind, cur)} vs baseline ${show(o.kind, b)}: uplift ${signedPct(uplift)}`;
    const res: RuleResult = { ...withBase, observed: uplift };
    return meets(r.op, uplift, r.threshold)
      ? withBand(res, uplift, `${text} meets the minimum ${signedPct(r.threshold)}`, (x) => signedPct(x))
      : fail(res, `${text} is below the minimum ${signedPct(r.threshold)}`);
  }
  const delta = cur - b;
  const text = `${rule.metric} ${show(o.kind, cur)} vs baseline ${show(o.kind, b)}: delta ${signedNum(delta)}`;
  const res: RuleResult = { ...withBase, observed: delta };
  return meets(r.op, delta, r.threshold)
    ? withBand(res, delta, `${text}, not below the baseline`, (x) => signedNum(x))
    : fail(
        res,
        `${text} is below the baseline${r.threshold !== 0 ? ` by more than ${num(-r.threshold)}` : ''}`,
      );
}

/** "profile:small" and "small" both name the small profile; "all"/"overall" is every request. */
function latencyScopes(latency: Record<string, MeasureValue>): {
  all?: MeasureValue;
  profiles: [string, MeasureValue][];
} {
  const profiles: [string, MeasureValue][] = [];
  let all: MeasureValue | undefined;
  for (const key of Object.keys(latency).sort(compareCodeUnits)) {
    const v = latency[key]!;
    if (key === 'all' || key === 'overall') all = v;
    else profiles.push([key.replace(/^profile:/, ''), v]);
  }
  return all ? { all, profiles } : { profiles };
}

function evaluateTimingRule(rule: GateRule, input: GateInput, base: RuleResult): RuleResult {
  const q = rule.quantile ?? 'p95';
  const minN = rule.min_denominator ?? 1;
  const scopes = latencyScopes(input.latency);
  const targets: [string, MeasureValue][] =
    rule.per === 'profile' ? scopes.profiles : scopes.all ? [['all requests', scopes.all]] : [];
  if (targets.length === 0) {
    return fail(
      { ...base, quantile: q, ...(rule.per ? { per: rule.per } : {}) },
      `not measured: no ${rule.per === 'profile' ? 'per-profile ' : ''}latency samples in this run`,
    );
  }
  const bound = `the ${base.op === 'min' ? 'minimum' : 'maximum'} ${ms(base.threshold)}`;
  const parts: string[] = [];
  let worst: number | null = null;
  let minSamples = Number.POSITIVE_INFINITY;
  let status: RuleStatus = 'pass';
  for (const [scope, v] of targets) {
    const o = observe(v, rule);
    minSamples = Math.min(minSamples, o.count);
    if (o.kind !== 'quantiles') {
      status = 'fail';
      parts.push(`${scope}: not a latency distribution`);
      continue;
    }
    if (o.value === null || o.count < minN) {
      status = 'fail';
      parts.push(`${scope}: insufficient evidence: n=${o.count}, at least ${minN} samples required`);
      continue;
    }
    worst =
      worst === null ? o.value : base.op === 'max' ? Math.max(worst, o.value) : Math.min(worst, o.value);
    const ok = meets(base.op, o.value, base.threshold);
    if (!ok) status = 'fail';
    parts.push(
      `${scope} ${q} ${ms(o.value)} (n=${o.count})${ok ? '' : ` ${base.op === 'max' ? 'above' : 'below'} ${bound}`}`,
    );
  }
  const r: RuleResult = {
    ...base,
    observed: worst,
    n: Number.isFinite(minSamples) ? minSamples : 0,
    quantile: q,
  };
  if (rule.per) r.per = rule.per;
  const lead =
    status === 'pass' ? `every ${rule.per === 'profile' ? 'profile' : 'scope'} meets ${bound}: ` : '';
  const reason = lead + parts.join('; ');
  return status === 'pass' && worst !== null ? withBand(r, worst, reason, (x) => ms(x)) : fail(r, reason);
}

function applySeverity(rule: GateRule, r: RuleResult): RuleResult {
  if (rule.severity !== 'warn' || r.status !== 'fail') return r;
  return { ...r, status: 'watch', reason: `${r.reason} (warn-level rule: WATCH, not FAIL)` };
}
