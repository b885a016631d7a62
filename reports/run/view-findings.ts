/**
 * The findings part of the view model: measured answers that break their contract (grouped by JSON
 * path), the peers' own figures beside rgate's, and what systems wrote on stderr or in a worker's
 * warnings. Plain text, like view.ts, for every renderer to escape in its own medium.
 */
import { pct } from '../../gates/index.js';
import type { Report } from '../../src/documents/index.js';

/** One line on measured answers that break their contract: how many, and that they were measured. */
export function violationHeadline(v: NonNullable<Report['contract_violations']>): string {
  return (
    `${v.violating} of ${v.measured} measured requests break ${v.contract}; measured all the same ` +
    '(their rankings count), and contract_validity counts them invalid.'
  );
}

export interface ViolationRow {
  /** the JSON path, array indices as `*`: `/files/*\/score_breakdown/combined_score` */
  path: string;
  /** the validator's message: `is required` */
  message: string;
  requests: number;
  queries: number;
  /** "q1, q2, q3 …" (up to 5, query set order; reports before them: the first query) */
  examples: string;
  /** the same ids, and whether more queries broke the rule than they name */
  example_ids: string[];
  examples_cut: boolean;
  /** the first row of its path (the renderers print the path once per group) */
  first_of_path: boolean;
  /** rows in this row's path group (on the first row; for an HTML rowspan) */
  path_rows: number;
}

export interface ViolationView {
  headline: string;
  /** invalid responses over measured ones: "18/18 (100.0%)" */
  invalid: string;
  contract: string;
  /** rules grouped by JSON path, the path with the most requests first; at most `max` rows */
  rows: ViolationRow[];
  /** "… and 3 more rules (see the JSON report)" or "" */
  more: string;
}

/**
 * The run's contract violations (report.contract_violations) as rows grouped by JSON path: each
 * path once, its messages under it with how many requests and queries broke them and example query
 * ids. Undefined when every measured answer kept its contract.
 */
export function violationView(report: Report, max = Infinity): ViolationView | undefined {
  const v = report.contract_violations;
  if (!v) return undefined;
  const split = (rule: string): [string, string] => {
    const at = rule.indexOf(': ');
    return at < 0 ? [rule, ''] : [rule.slice(0, at), rule.slice(at + 2)];
  };
  // paths in the order of their most frequent rule (the rules come most frequent first)
  const groups = new Map<string, NonNullable<Report['contract_violations']>['rules']>();
  for (const r of v.rules) {
    const [path] = split(r.rule);
    groups.set(path, [...(groups.get(path) ?? []), r]);
  }
  const rows: ViolationRow[] = [];
  for (const [path, rules] of groups)
    rules.forEach((r, i) => {
      const ids = r.examples ?? [r.first.query_id];
      rows.push({
        path,
        message: split(r.rule)[1],
        requests: r.requests,
        queries: r.queries,
        examples: ids.join(', ') + (r.queries > ids.length ? ' …' : ''),
        example_ids: ids,
        examples_cut: r.queries > ids.length,
        first_of_path: i === 0,
        path_rows: i === 0 ? rules.length : 0,
      });
    });
  const shown = rows.slice(0, max);
  // a group cut by `max` spans only the rows shown
  for (const r of shown) if (r.first_of_path) r.path_rows = shown.filter((x) => x.path === r.path).length;
  return {
    headline: violationHeadline(v),
    invalid: `${v.violating}/${v.measured} (${v.measured ? pct(v.violating / v.measured) : 'n/a'})`,
    contract: v.contract,
    rows: shown,
    more:
      rows.length > shown.length
        ? `… and ${rows.length - shown.length} more rules (see the JSON report)`
        : '',
  };
}

export interface PeerFigureView {
  /** "memory-cli evaluate", "cortex Phase 2 harness" */
  peer: string;
  id: string;
  /** "1/1 (100.0%)" for a rate, "0.495506" for a median */
  figure: string;
  /** rgate's nearest measure: "ndcg_cut.5", and its value as the figure is written: "3/4 (75.0%)" */
  metric: string;
  ours: string;
  /** the whole comparison in one sentence */
  line: string;
  /** how the peer computes it */
  source: string;
  why: string;
  per_query: { query_id: string; value: string }[];
}

/** A value as a peer figure is written: up to 6 decimals, no trailing zeros. */
function figureNum(x: number): string {
  return String(Number(x.toFixed(6)));
}

/**
 * The figures a system's own project computes (report.peer_figures), each beside rgate's nearest
 * measure: a rate as numerator/denominator for both sides, a median or mean as its value.
 */
export function peerFigureViews(report: Report): PeerFigureView[] {
  return (report.peer_figures ?? []).map((p) => {
    const figure =
      p.numerator !== undefined && p.denominator !== undefined
        ? `${p.numerator}/${p.denominator} (${p.denominator ? pct(p.numerator / p.denominator) : 'n/a'})`
        : figureNum(p.value);
    const m = report.metrics.find((x) => x.id === p.beside.metric)?.value;
    const ours =
      m?.kind === 'rate'
        ? `${m.numerator}/${m.denominator} (${m.denominator ? pct(m.numerator / m.denominator) : 'insufficient evidence'})`
        : p.beside.value === null
          ? 'not measured (no qrels, or not a ranking measure of the suite)'
          : figureNum(p.beside.value);
    const peer = p.peer ?? p.source;
    return {
      peer,
      id: p.id,
      figure,
      metric: p.beside.metric,
      ours,
      line: `${peer}: ${p.id} = ${figure}; rgate's ${p.beside.metric} = ${ours}.`,
      source: p.source,
      why: p.why,
      per_query: p.per_query.map((q) => ({ query_id: q.query_id, value: figureNum(q.value) })),
    };
  });
}

export interface WarningView {
  /** "57 of 57 answered requests wrote to stderr (100.0%)"; empty when none did (the section is left out) */
  headline: string;
  /** "57/57 requests warned: embedding unavailable; using token-overlap scoring" (in 12 queries) */
  lines: string[];
  /** "… and 3 more distinct lines (see report.json observations)" or "" */
  more: string;
}

/**
 * The run's warnings (report.warnings): what the system said on stderr while it answered, one line
 * per distinct text with how many requests said it. Empty headline when no answer wrote anything, or
 * the report predates the section.
 */
export function warningView(report: Report): WarningView {
  const w = report.warnings;
  if (!w || w.warned === 0) return { headline: '', lines: [], more: '' };
  return {
    headline: `${w.warned} of ${w.answered} answered requests wrote to stderr (${pct(w.warned / w.answered)}); the answers were measured as they came`,
    lines: w.lines.map(
      (l) =>
        `${l.requests}/${w.answered} requests warned: ${l.text} (${l.queries} ${l.queries === 1 ? 'query' : 'queries'}, first ${l.first.query_id} replay ${l.first.replay})`,
    ),
    more:
      w.more_lines > 0
        ? `… and ${w.more_lines} more distinct lines (each answer's own are in the run store)`
        : '',
  };
}

export interface FallbackReasonView {
  /** "3 requests took a fallback, each with the system's stated reason"; empty when no fallback stated one (the section is left out) */
  headline: string;
  /** "2/3 fallbacks at path_priority: semantic confidence gate failed; ... (2 queries, first q-none replay 1)" */
  lines: string[];
  /** "… and 3 more distinct reasons (each request's own is in the run store)" or "" */
  more: string;
}

/**
 * Why the system fell back (report.fallback_reasons), in its own words, one line per distinct
 * (stage, reason) with how many of the fallbacks gave it. Empty headline when no fallback stated a
 * reason (nothing the system said is left out), or the report predates the section.
 */
export function fallbackReasonView(report: Report): FallbackReasonView {
  const f = report.fallback_reasons;
  if (!f || f.reasons.length + f.more_reasons === 0) return { headline: '', lines: [], more: '' };
  const n = f.fell_back;
  const took = `${n} ${n === 1 ? 'request' : 'requests'} took a fallback`;
  return {
    headline:
      f.unstated === 0
        ? `${took}, ${n === 1 ? 'with' : 'each with'} the system's stated reason`
        : `${took}; ${f.unstated} of them stated no reason`,
    lines: f.reasons.map(
      (r) =>
        `${r.requests}/${n} ${n === 1 ? 'fallback' : 'fallbacks'}${r.stage !== undefined ? ` at ${r.stage}` : ''}: ${r.reason} (${r.queries} ${r.queries === 1 ? 'query' : 'queries'}, first ${r.first.query_id} replay ${r.first.replay})`,
    ),
    more:
      f.more_reasons > 0
        ? `… and ${f.more_reasons} more distinct reasons (each request's own is in the run store)`
        : '',
  };
}
