/**
 * The view model every renderer draws from: rule rows with their counts and thresholds, the other
 * measures, selection-mode breakdown, failing queries, replay proof. Computing it once keeps the
 * terminal, Markdown, JUnit and HTML outputs saying the same thing with the same numbers.
 * Everything here is plain text; each renderer escapes it for its own medium.
 */
import {
  ms,
  num,
  pct,
  pctAgainst,
  ruleLabel,
  notApplicableIn,
  signedNum,
  type HiddenMetric,
  signedPct,
  TIMING_METRICS,
  withTimingRules,
} from '../../gates/index.js';
import {
  RANKING_ONLY,
  SELECTION_MODES,
  type GateResult,
  type MeasureValue,
  type MetricEntry,
  type QueryOutcome,
  type Report,
  gateAsRead,
  type RuleResult,
  type RuleStatus,
  type VsBaseRuleEntry,
  type Weighting,
  WeightsSchema,
} from '../../src/documents/index.js';

export interface MetricRow {
  /** metric id, with " vs baseline" for baseline rules */
  label: string;
  /** "41/50", "n=40", "" */
  counted: string;
  numerator: string;
  denominator: string;
  /** the compared value: "82.0%", "0.9076", "+12.0%", "2,310 ms" */
  value: string;
  /** 95% interval: Wilson for rates, bootstrap for means */
  interval: string;
  /** ">= 80.0%", "<= 2,000 ms", "—" when no rule reads the metric */
  threshold: string;
  /** not_evaluated: a vs_base rule, which only the server judges (against the base branch's run) */
  status: RuleStatus | 'info' | 'not_evaluated';
  /** the rule's reason; empty for measures no rule reads */
  reason: string;
  /** what the numerator and denominator (or n) count, from the measure's help */
  help: string;
  /** for charts: observed and threshold on a common scale (rates and means in [0,1]), or null */
  chart: { observed: number; threshold: number } | null;
}

function isTiming(metric: string): boolean {
  return TIMING_METRICS.includes(metric);
}

function valueText(r: RuleResult): string {
  if (r.observed === null) return 'n/a';
  if (r.baseline) return r.baseline.comparison === 'uplift' ? signedPct(r.observed) : signedNum(r.observed);
  if (isTiming(r.metric)) return ms(r.observed);
  if (r.metric === 'query_count') return String(r.observed);
  if (r.denominator !== undefined) return pctAgainst(r.observed, r.threshold);
  return num(r.observed);
}

function thresholdText(r: RuleResult): string {
  const op = r.op === 'min' ? '>=' : '<=';
  if (r.baseline) {
    return r.baseline.comparison === 'uplift'
      ? `${op} ${signedPct(r.threshold)}`
      : `${op} base${r.threshold === 0 ? '' : signedNum(r.threshold)}`;
  }
  if (isTiming(r.metric)) return `${op} ${ms(r.threshold)}`;
  if (r.metric === 'query_count') return `${op} ${r.threshold}`;
  if (r.denominator !== undefined) return `${op} ${pct(r.threshold)}`;
  return `${op} ${num(r.threshold)}`;
}

function intervalText(v: MeasureValue | undefined): string {
  if (!v) return '';
  if (v.kind === 'rate' && v.wilson95) return `${pct(v.wilson95[0])}–${pct(v.wilson95[1])}`;
  if (v.kind === 'mean' && v.ci95) return `${v.ci95[0].toFixed(3)}–${v.ci95[1].toFixed(3)}`;
  return '';
}

function countedText(r: { numerator?: number; denominator?: number; n?: number }): string {
  if (r.numerator !== undefined && r.denominator !== undefined) return `${r.numerator}/${r.denominator}`;
  if (r.n !== undefined) return `n=${r.n}`;
  return '';
}

export function ruleRow(r: RuleResult, metrics: MetricEntry[]): MetricRow {
  const entry = metrics.find((m) => m.id === r.metric);
  const scaled = !r.baseline && !isTiming(r.metric) && r.metric !== 'query_count';
  return {
    label: ruleLabel(r),
    counted: countedText(r),
    numerator: r.numerator !== undefined ? String(r.numerator) : '',
    denominator: r.denominator !== undefined ? String(r.denominator) : r.n !== undefined ? `n=${r.n}` : '',
    value: valueText(r),
    interval: r.baseline ? '' : intervalText(entry?.value),
    threshold: thresholdText(r),
    status: r.status,
    reason: r.reason,
    help: entry?.help ?? '',
    chart: scaled && r.observed !== null ? { observed: r.observed, threshold: r.threshold } : null,
  };
}

/** A vs_base rule's row: nothing measured against a base run here, its reason says who judges it. */
export function vsBaseRow(v: VsBaseRuleEntry, metrics: MetricEntry[]): MetricRow {
  return {
    label: `${v.metric} vs base`,
    counted: '',
    numerator: '',
    denominator: '',
    value: 'n/a',
    interval: '',
    threshold: `drop <= ${num(v.max_drop)}`,
    status: 'not_evaluated',
    reason: v.reason,
    help: metrics.find((m) => m.id === v.metric)?.help ?? '',
    chart: null,
  };
}

/** A row's status as a report prints it: "PASS", "NOT EVALUATED"; "" for a measure no rule reads. */
export function statusWord(status: MetricRow['status']): string {
  return status === 'info' ? '' : status === 'not_evaluated' ? 'NOT EVALUATED' : status.toUpperCase();
}

export function measureRow(m: MetricEntry): MetricRow {
  const v = m.value;
  let value = 'n/a';
  let counted = '';
  let numerator = '';
  let denominator = '';
  if (v.kind === 'rate') {
    counted = `${v.numerator}/${v.denominator}`;
    numerator = String(v.numerator);
    denominator = String(v.denominator);
    if (v.rate !== null) value = pct(v.rate);
  } else if (v.kind === 'mean') {
    counted = `n=${v.n}`;
    denominator = `n=${v.n}`;
    if (v.mean !== null) value = num(v.mean);
  } else {
    counted = `n=${v.n}`;
    denominator = `n=${v.n}`;
    if (v.p95 !== null) value = `p95 ${ms(v.p95)}`;
  }
  return {
    label: m.id,
    counted,
    numerator,
    denominator,
    value,
    interval: intervalText(v),
    threshold: '—',
    status: 'info',
    reason: '',
    help: m.help,
    chart: null,
  };
}

/** The gate as shown: timing rules moved to `timing.timing_rules` are put back in place. */
export function displayGate(report: Report): GateResult {
  return withTimingRules(report.gate, report.timing.timing_rules);
}

/** A suite run without a gate policy: measures only, nothing enforced (harness noGate). */
export function isGated(report: Report): boolean {
  return gateAsRead(report.gate).verdict !== 'NONE';
}

/** Does selection data (modes, fallback, probes) apply to this run? The harness decides (readers upgrade older reports). */
export function selectionApplies(report: Report): boolean {
  return report.judging?.selection_step ?? false;
}

/** The banner's words: "FAIL  semantic-retrieval-v1 v1.0.0", or "NO GATE  measures only" without a policy. */
export function bannerTitle(report: Report): { status: string; title: string } {
  const g = displayGate(report);
  // a FAIL the fixture's missing judgments decide says so where the eye lands first
  const cause =
    g.cause === 'judgments' ? ' · insufficient judgments' : g.cause === 'queries' ? ' · too few queries' : '';
  return isGated(report)
    ? { status: g.verdict, title: `${g.gate_id} v${g.gate_version}${cause}` }
    : { status: 'NO GATE', title: 'measures only, nothing enforced' };
}

/**
 * The top-1 measure's denominator split as the harness stored it (judging.top1_split): "top-1 of
 * the 86 judged benchmark queries: 37 useful · 22 useful by fallback · 18 judged not useful · 9
 * unjudged (count as not useful)". Undefined for reports without it or with nothing counted.
 */
export function top1SplitText(report: Report): string | undefined {
  const s = report.judging?.top1_split;
  if (!s || s.counted === 0) return undefined;
  const parts = [
    `${s.useful} useful`,
    `${s.useful_by_fallback} useful by fallback`,
    ...(s.useful_without_mode ? [`${s.useful_without_mode} useful without a selection mode`] : []),
    `${s.judged_not_useful} judged not useful`,
    `${s.unjudged} unjudged (count as not useful)`,
  ];
  if (s.no_answer) parts.push(`${s.no_answer} without an answer`);
  return `top-1 of the ${s.counted} judged benchmark queries: ${parts.join(' · ')}`;
}

/** Measures no rule reads that do not apply to this run (gates/metric-applies.ts says which). */
export function hiddenMetrics(report: Report): HiddenMetric[] {
  return notApplicableIn(report);
}

/** "top1_useful_rate, fallback_determinism (no selection step); sensitive_leak_rate (nothing to count)" */
export function hiddenText(hidden: readonly HiddenMetric[]): string {
  const byWhy = new Map<string, string[]>();
  for (const h of hidden) byWhy.set(h.why, [...(byWhy.get(h.why) ?? []), h.id]);
  return [...byWhy].map(([why, ids]) => `${ids.join(', ')} (${why})`).join('; ');
}

/**
 * Gate rules first (policy order), then the vs_base rules (not evaluated in a run), then every
 * measure no evaluated rule reads that applies (report order): a vs_base rule's measure keeps its row.
 */
export function metricRows(report: Report): MetricRow[] {
  const gate = displayGate(report);
  const ruled = new Set(gate.rules.map((r) => r.metric));
  const hidden = new Set(hiddenMetrics(report).map((h) => h.id));
  return [
    ...gate.rules.map((r) => ruleRow(r, report.metrics)),
    ...(gate.vs_base_rules ?? []).map((v) => vsBaseRow(v, report.metrics)),
    ...report.metrics.filter((m) => !ruled.has(m.id) && !hidden.has(m.id)).map(measureRow),
  ];
}

/** The queries that count against the run (report order), each with its reasons. */
export function failingQueries(report: Report): { q: QueryOutcome; why: string }[] {
  return report.failing_queries.map((q) => ({ q, why: whyFailing(q) })).filter((f) => f.why !== '');
}

/**
 * Title of the failing-query section: gate failures; on a gate that passed (or watches), the queries
 * its rates counted against it without failing it; without a gate, informational top-1 misses.
 */
export function failingTitle(report: Report, n: number): string {
  if (!isGated(report)) return `Top-1 misses (${n}): informational, no gate enforces them`;
  const verdict = displayGate(report).verdict;
  return verdict === 'FAIL'
    ? `Failing queries (${n}), each with why it counts against the gate`
    : `Queries counted against the gate's rates (${n}); the gate ${verdict === 'PASS' ? 'passed' : 'watches'} with them`;
}

/** What a probe expected, in words: "no_match (nothing selected)", "fallback_exact_key, top-1 r42". */
export function expectationText(q: QueryOutcome): string {
  const e = q.expected;
  if (e.no_match) return 'no_match (nothing selected)';
  const ids = e.useful_ids ?? e.useful_paths ?? [];
  const top = ids.length
    ? `, top-1 ${ids.slice(0, 2).join(' or ')}${ids.length > 2 ? ` +${ids.length - 2}` : ''}`
    : '';
  return `${e.selection_mode ?? '(none)'}${top}`;
}

/** What a probe got, in words: "semantic: r17", "no_match", "error: timeout". */
export function answeredText(q: QueryOutcome): string {
  if (!q.actual.ok) return `error: ${q.actual.error ?? 'unknown'}`;
  const mode = q.actual.selection_mode ?? RANKING_ONLY;
  return mode === 'no_match' ? 'no_match' : `${mode}: ${actualText(q)}`;
}

/** A failing row's detail line: a probe's expectation (its text is only the probe's input), a query's text. */
export function failingDetail(q: QueryOutcome): string {
  return q.kind === 'probe' ? `expected ${expectationText(q)}` : `"${q.text}"`;
}

export interface UnmetRow {
  query_id: string;
  expected: string;
  answered: string;
}

/**
 * Probe expectations not met that no gate rule reads (fallback_expectation_met ungated): findings
 * about the system, listed apart from the queries that count against the gate.
 */
export function unmetExpectations(report: Report): UnmetRow[] {
  const failing = new Set(report.failing_queries.map((q) => q.query_id));
  return report.queries
    .filter((q) => q.kind === 'probe' && q.expectation_met === false && !failing.has(q.query_id))
    .map((q) => ({ query_id: q.query_id, expected: expectationText(q), answered: answeredText(q) }));
}

/** "Expectations not met (not gated) (3), probe by probe" */
export function unmetTitle(n: number): string {
  return `Expectations not met (not gated) (${n}), probe by probe`;
}

export interface NotApplicableRow {
  /** "3 exact_key probes not applicable to this system: <reason>" */
  headline: string;
  fix: string;
  query_ids: string;
}

/** Probes the system cannot take (no way to receive their input), with the reason and the fix. */
export function notApplicableRows(report: Report): NotApplicableRow[] {
  return (report.not_applicable ?? []).map((n) => ({
    headline: `${n.query_ids.length} ${n.input} ${n.query_ids.length === 1 ? 'probe' : 'probes'} not applicable to this system: ${n.reason}`,
    fix: `fix: ${n.fix}`,
    query_ids: n.query_ids.join(', '),
  }));
}

/**
 * Does a query count against the run (is it among the report's failing queries)? The failing list is
 * read once into a set: a scan per query made a 10k-query page quadratic (10,000 x 4,628 compares).
 */
export function countsAgainst(report: Report): (q: QueryOutcome) => boolean {
  const failing = new Set(report.failing_queries.map((f) => f.query_id));
  return (q) => failing.has(q.query_id);
}

export interface ModeRow {
  mode: string;
  queries: number;
  useful: number;
  not_useful: number;
}

/** The row of an answer that names no selection mode: a ranking, not a no_match (it may well be useful). */
export { RANKING_ONLY };

/**
 * Semantic wins vs fallback-triggered results (seed 001 "Fallback Interaction Rule"), from the
 * replay-1 answers of benchmark queries; answers without a selection mode (a plain ranking) and
 * errors get their own rows. Fixed row order. None at all where the run has no selection step.
 */
export function selectionModeRows(report: Report): ModeRow[] {
  if (!selectionApplies(report)) return [];
  const keys = [...SELECTION_MODES, RANKING_ONLY, 'error'];
  const rows = keys.map((mode) => ({ mode, queries: 0, useful: 0, not_useful: 0 }));
  for (const q of report.queries) {
    if (q.kind !== 'benchmark') continue;
    const key = q.actual.ok ? (q.actual.selection_mode ?? RANKING_ONLY) : 'error';
    const row = rows[keys.indexOf(key)] ?? rows[rows.length - 1]!;
    row.queries++;
    if (q.top1 === 'useful') row.useful++;
    else row.not_useful++;
  }
  return rows.filter((r) => r.queries > 0 || r.mode === 'semantic');
}

/** "semantic" -> "semantic", "fallback_exact_key" -> "fb:exact", for narrow columns. */
export function shortMode(q: QueryOutcome): string {
  if (!q.actual.ok) return 'error';
  switch (q.actual.selection_mode) {
    case 'fallback_exact_key':
      return 'fb:exact';
    case 'fallback_path_priority':
      return 'fb:path';
    case undefined:
      return '(none)';
    default:
      return q.actual.selection_mode;
  }
}

export function expectedText(q: QueryOutcome): string {
  const e = q.expected;
  if (e.no_match) return 'no_match';
  const few = (ids: readonly string[]) =>
    ids.slice(0, 2).join(', ') + (ids.length > 2 ? ` +${ids.length - 2}` : '');
  const parts: string[] = [];
  if (e.useful_ids?.length) parts.push(few(e.useful_ids));
  else if (e.useful_paths?.length) parts.push(few(e.useful_paths));
  else if (e.relevant_ids?.length) parts.push(`${few(e.relevant_ids)} (qrels)`);
  if (e.selection_mode && e.selection_mode !== 'semantic') parts.push(`via ${e.selection_mode}`);
  return parts.join(' ') || (q.judged === false ? '(no judgment)' : '(by rules)');
}

/** Why a query counts against the run, in a few words ("" when it does not), as the harness decided. */
export function whyFailing(q: QueryOutcome): string {
  return (q.failure_reasons ?? []).join(', ');
}

export function actualText(q: QueryOutcome): string {
  if (!q.actual.ok) return `error: ${q.actual.error ?? 'unknown'}`;
  if (q.actual.selection_mode === 'no_match') return 'no_match';
  // a ranking-only answer names no selected id: its top-ranked id is what it answered
  return q.actual.selected_id ?? q.actual.top_ids[0] ?? '(nothing returned)';
}

/**
 * Why the answer shown (replay 1) fell back, in the system's words: "fell back (path_priority):
 * semantic confidence gate failed; ...". "" when it took no fallback or stated no reason.
 */
export function fallbackReasonText(q: QueryOutcome): string {
  const reason = q.actual.fallback_reason;
  if (reason === undefined) return '';
  return q.actual.fallback_stage
    ? `fell back (${q.actual.fallback_stage}): ${reason}`
    : `fell back: ${reason}`;
}

export interface ReplaySummary {
  /** identical, divergent, or unproven (a run that stopped before every replay ran and nothing differs) */
  status: 'identical' | 'divergent' | 'unproven';
  headline: string;
  divergent: { query_id: string; field: string; groups: string }[];
}

export function shortHash(h: string): string {
  const m = /^sha256:([0-9a-f]+)$/.exec(h);
  return m ? `sha256:${m[1]!.slice(0, 12)}` : h.length > 20 ? `${h.slice(0, 19)}…` : h;
}

export function replaySummary(report: Report): ReplaySummary {
  const p = report.replay_proof;
  const status = p.status ?? (p.identical ? 'identical' : 'divergent');
  const completed = p.completed_replays ?? p.replays;
  const distinctRollups = new Set(p.rollups).size;
  const stable = p.per_query.length - p.divergent.length;
  const divergentText = `${p.divergent.length} divergent ${p.divergent.length === 1 ? 'query' : 'queries'}`;
  const headline =
    status === 'unproven'
      ? // what never ran is no evidence either way: no "identical", no "divergent"
        `${completed} of ${p.replays} replays completed (seed ${p.seed}): determinism not shown, ` +
        'a query replays identically only when every replay of it ran; no two replays that ran differ'
      : `${p.replays} replays (seed ${p.seed}): ${stable}/${p.per_query.length} queries identical in every replay; ` +
        (status === 'identical'
          ? `all ${p.rollups.length} replay rollups equal (${shortHash(p.rollups[0] ?? '')})`
          : completed < p.replays
            ? `${divergentText} among the replays that ran (${completed} of ${p.replays} completed)`
            : `${distinctRollups} distinct replay rollups, ${divergentText}`);
  return {
    status,
    headline,
    divergent: p.divergent.map((d) => ({
      query_id: d.query_id,
      field: d.field,
      groups: d.groups.map((g) => `replays ${g.replays.join(',')} -> ${shortHash(g.fingerprint)}`).join('; '),
    })),
  };
}

/** A weight as the seed writes its presets: two decimals, more only where the weight has them. */
function weightText(w: number): string {
  return Number(w.toFixed(2)) === w ? w.toFixed(2) : String(w);
}

/** "weighting_mode uniform: lexical 0.55 · evidence 0.20 · outcome 0.15 · freshness 0.10" */
export function weightingText(w: Weighting | undefined): string {
  if (!w) return '';
  const keys = Object.keys(WeightsSchema.properties) as (keyof Weighting['weights'])[];
  return `weighting_mode ${w.mode}: ${keys.map((k) => `${k} ${weightText(w.weights[k])}`).join(' · ')}`;
}

/** "semantic wins: semantic, hybrid_rrf": which selection modes the gate counted as semantic (the contract's setting). */
export function semanticWinText(report: Report): string {
  if (!selectionApplies(report)) return ''; // no selection step: no semantic win to define
  const modes = report.system.semantic_win_modes;
  return modes
    ? `semantic wins: ${modes.join(', ')}`
    : 'semantic wins: semantic (report written before the setting existed)';
}

/**
 * "ranked entries: auto (the task: entries when any, else all; ...)": which entries of a context-load
 * answer the measures ranked (the suite's `ranked_entries`). Empty for other contracts and for reports
 * written before the setting was shown.
 */
export function rankedEntriesText(report: Report): string {
  const r = report.system.ranked_entries;
  if (r === undefined) return '';
  const what =
    r === 'auto'
      ? 'default: the task: entries when the answer has any, else all'
      : r === 'all'
        ? 'every entry'
        : r === 'rank'
          ? 'the entries with an integer rank, in rank order'
          : `the entries whose selected_by starts with ${r.slice('selected_by:'.length)}`;
  // `all` leaves nothing out: there are no others to list
  return r === 'all'
    ? `ranked entries: ${r} (${what})`
    : `ranked entries: ${r} (${what}; the others are listed as unranked, per query)`;
}

/** most unranked ids a Markdown or HTML row names; report.json keeps every one */
const UNRANKED_SHOWN = 5;

/** "3: .cortex/a.md, .cortex/b.md, specs/c.md" (capped: "... and 2 more"): a query's unranked entries, compactly. */
export function unrankedText(q: QueryOutcome): string {
  const ids = q.actual.unranked_ids ?? [];
  if (!ids.length) return '';
  const more = ids.length > UNRANKED_SHOWN ? ` and ${ids.length - UNRANKED_SHOWN} more` : '';
  return `${ids.length}: ${ids.slice(0, UNRANKED_SHOWN).join(', ')}${more}`;
}

/** The queries whose replay-1 answer carried entries that were not ranked, in report order. */
export function unrankedRows(report: Report): { query_id: string; unranked: string }[] {
  return report.queries
    .filter((q) => q.actual.unranked_ids?.length)
    .map((q) => ({ query_id: q.query_id, unranked: unrankedText(q) }));
}

/** "unranked entries: 27 in 9 of 9 queries (replay 1; ...)": the terminal's count line; "" when none. */
export function unrankedCountText(report: Report): string {
  const withAny = report.queries.filter((q) => q.actual.unranked_ids?.length);
  if (!withAny.length) return '';
  const n = withAny.reduce((sum, q) => sum + q.actual.unranked_ids!.length, 0);
  return (
    `unranked entries: ${n} in ${withAny.length} of ${report.queries.length} queries ` +
    '(replay 1; listed per query in the Markdown, HTML and JSON reports)'
  );
}
