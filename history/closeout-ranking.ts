/**
 * The queries behind a closeout's failing ranking rules. nDCG and recall rules judge a mean over all
 * queries, so no query fails them by itself; a reviewer still needs to see which queries moved the
 * mean: against the baseline, each query's change (how many dropped, tied, improved, and the largest
 * drops); against a threshold, the queries below it.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type { RankingEvidence, RankingQuery, Report, RuleResult } from '../src/documents/index.js';
import { SUITE_DEFAULTS, STATS_DEFAULTS } from '../src/core/defaults.js';
import { deriveSeed } from '../src/core/prng.js';
import { pairedRandomizationTest } from '../src/stats/index.js';
import { EPS } from './diff.js';

/** How many queries a closeout lists per rule. */
const RANKING_EVIDENCE_LIMIT = 10;

/** The baseline as the closeout found it: its stored report undefined when it cannot be read. */
export interface RankingBaseline {
  run_id: string;
  report: Pick<Report, 'queries'> | undefined;
}

/** Each query's finite value of `metric`, by query id. */
function valuesOf(queries: Report['queries'], metric: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const q of queries) {
    const v = q.measures?.[metric];
    if (typeof v === 'number' && Number.isFinite(v)) out.set(q.query_id, v);
  }
  return out;
}

/**
 * One entry per failing rule whose metric is a per-query ranking measure of `run` (a mean in its
 * metrics that its queries carry), in the rules' order. Pure: the same reports give the same entries.
 * Example: rankingEvidence(gate.rules, report, { run_id: 'b', report: baselineReport })
 */
export function rankingEvidence(
  rules: readonly RuleResult[],
  run: Pick<Report, 'metrics' | 'queries'>,
  baseline: RankingBaseline | undefined,
): RankingEvidence[] {
  const texts = new Map(run.queries.map((q) => [q.query_id, q.text]));
  const out: RankingEvidence[] = [];
  for (const r of rules) {
    if (r.status !== 'fail') continue;
    if (run.metrics.find((m) => m.id === r.metric)?.value.kind !== 'mean') continue;
    const values = valuesOf(run.queries, r.metric);
    if (!values.size) continue;
    const rule = r.metric + (r.baseline ? ' vs baseline' : '');
    const query = (id: string, extra: Omit<RankingQuery, 'query_id' | 'text'>): RankingQuery => ({
      query_id: id,
      text: texts.get(id) ?? '',
      ...extra,
    });
    if (r.baseline) {
      const head = { metric: r.metric, rule, kind: 'vs_baseline' as const };
      if (!baseline?.report) {
        out.push({
          ...head,
          ...(baseline ? { baseline_run_id: baseline.run_id } : {}),
          n: 0,
          unavailable: baseline
            ? `the stored report of baseline run ${baseline.run_id} cannot be read (a run stored by an older rgate), so its queries cannot be compared one by one`
            : 'no baseline run to compare its queries with',
          queries: [],
        });
        continue;
      }
      const before = valuesOf(baseline.report.queries, r.metric);
      const paired: RankingQuery[] = [];
      for (const [id, value] of values) {
        const b = before.get(id);
        if (b !== undefined) paired.push(query(id, { value, baseline: b, delta: value - b }));
      }
      const dropped = paired.filter((q) => q.delta! < -EPS);
      const improved = paired.filter((q) => q.delta! > EPS).length;
      // the test reads every pair (in query id order), the listing only the largest drops
      const inOrder = [...paired].sort((a, b) => compareCodeUnits(a.query_id, b.query_id));
      const test =
        dropped.length + improved === 0
          ? { p: 1, exact: true }
          : pairedRandomizationTest(
              inOrder.map((q) => q.baseline!),
              inOrder.map((q) => q.value),
              {
                seed: deriveSeed(SUITE_DEFAULTS.seed, `closeout\u0000${r.metric}`),
                permutations: STATS_DEFAULTS.permutations,
              },
            );
      dropped.sort((a, b) => a.delta! - b.delta! || compareCodeUnits(a.query_id, b.query_id));
      out.push({
        ...head,
        baseline_run_id: baseline.run_id,
        n: paired.length,
        improved,
        tied: paired.length - improved - dropped.length,
        dropped: dropped.length,
        unpaired: values.size + before.size - 2 * paired.length,
        ...(paired.length ? { p_value: test.p, p_exact: test.exact } : {}),
        queries: dropped.slice(0, RANKING_EVIDENCE_LIMIT),
      });
    } else if (r.op === 'min') {
      // below by more than float noise: a query at the threshold meets it
      const below = [...values]
        .filter(([, v]) => v < r.threshold - EPS)
        .map(([id, value]) => query(id, { value }))
        .sort((a, b) => a.value - b.value || compareCodeUnits(a.query_id, b.query_id));
      out.push({
        metric: r.metric,
        rule,
        kind: 'threshold',
        threshold: r.threshold,
        n: values.size,
        below: below.length,
        queries: below.slice(0, RANKING_EVIDENCE_LIMIT),
      });
    }
  }
  return out;
}
