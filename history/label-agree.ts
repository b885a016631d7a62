/**
 * `rgate label agree`: how far two graders agree (two judgments files, or one and a set's frozen
 * qrels), and whether a run's top-1 verdict survives swapping one for the other: the field's known
 * result is that system orderings survive assessor disagreement (Voorhees 2000); this shows whether a
 * gate's verdict does.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import type { LabelAgreeOutput, Report, RuleResult, RuleStatus } from '../src/documents/index.js';
import { isSemanticWin, semanticWinModesOf, top1IdOf } from '../src/metrics/index.js';
import { cohenKappa, kappaInterval } from '../src/stats/index.js';
import { num, pct } from '../gates/format.js';

/** One grader: (query id, doc id) -> grade. */
export interface Grader {
  source: string;
  kind: 'judgments' | 'qrels';
  grades: ReadonlyMap<string, number>;
}

export const pairKey = (queryId: string, docId: string): string => `${queryId}\u0000${docId}`;

const RESAMPLES = 1000;
const SEED = 37;
const EPS = 1e-12;
const TOP1_RATES = new Set(['top1_useful_rate', 'top1_useful_any_mode']);

export function agreeGraders(
  a: Grader,
  b: Grader,
  relevanceLevel: number,
  run?: { run_id: string; report: Report },
  compare?: Omit<NonNullable<LabelAgreeOutput['compare']>, 'changes'>,
): LabelAgreeOutput {
  const keys = [...a.grades.keys()].filter((k) => b.grades.has(k)).sort(compareCodeUnits);
  const ga = keys.map((k) => a.grades.get(k)!);
  const gb = keys.map((k) => b.grades.get(k)!);
  const levels = [...new Set([...ga, ...gb])].sort((x, y) => x - y);
  const at = new Map(levels.map((l, i) => [l, i]));
  const confusion = levels.map(() => levels.map(() => 0));
  let same = 0;
  keys.forEach((_, i) => {
    confusion[at.get(ga[i]!)!]![at.get(gb[i]!)!]!++;
    if (ga[i] === gb[i]) same++;
  });
  const rel = (g: number) => (g >= relevanceLevel ? 1 : 0);
  const opts = { seed: SEED, resamples: RESAMPLES };
  const doc: LabelAgreeOutput = {
    a: { source: a.source, kind: a.kind, pairs: a.grades.size },
    b: { source: b.source, kind: b.kind, pairs: b.grades.size },
    pairs: keys.length,
    levels,
    confusion,
    agreement: keys.length ? same / keys.length : null,
    kappa: cohenKappa(ga, gb),
    kappa95: kappaInterval(ga, gb, 'none', opts),
    weighted_kappa: cohenKappa(ga, gb, 'linear'),
    weighted_kappa95: kappaInterval(ga, gb, 'linear', opts),
    relevance_level: relevanceLevel,
    binary_kappa: cohenKappa(ga.map(rel), gb.map(rel)),
    seed: SEED,
    resamples: RESAMPLES,
    ...(run ? { verdict: verdictWith(run, a, b, relevanceLevel) } : {}),
    ...(compare ? { compare: { ...compare, changes: compare.winners.some((w) => w.changes) } } : {}),
    summary: '',
  };
  return { ...doc, summary: summaryOf(doc) };
}

/** Each top-1 rate rule of the run re-counted under each grader. */
function verdictWith(
  run: { run_id: string; report: Report },
  a: Grader,
  b: Grader,
  level: number,
): NonNullable<LabelAgreeOutput['verdict']> {
  const r = run.report;
  const modes = semanticWinModesOf(r);
  const selection = r.judging?.selection_step ?? false;
  const rules = r.gate.rules
    .filter((x) => TOP1_RATES.has(x.metric) && !x.baseline && x.denominator !== undefined)
    .map((rule) => {
      const count = (g: Grader) => {
        let numerator = 0;
        let denominator = 0;
        for (const q of r.queries) {
          if (q.kind !== 'benchmark' || q.judged === false) continue;
          denominator++;
          const doc = top1IdOf(q);
          const grade =
            doc !== undefined && q.top1_by === 'qrels' ? g.grades.get(pairKey(q.query_id, doc)) : undefined;
          // the grader's grade where it grades the run's top-1 (and qrels decided it); the run's own judgment elsewhere
          const useful = grade !== undefined ? grade >= level : q.top1 === 'useful';
          const counts =
            useful &&
            (rule.metric === 'top1_useful_any_mode' ||
              !selection ||
              isSemanticWin('useful', q.actual.selection_mode, modes));
          if (counts) numerator++;
        }
        return { numerator, denominator, status: statusAt(rule, denominator ? numerator / denominator : 0) };
      };
      const with_a = count(a);
      const with_b = count(b);
      return {
        metric: rule.metric,
        threshold: rule.threshold,
        with_a,
        with_b,
        changes: with_a.status !== with_b.status,
      };
    });
  return { run_id: run.run_id, rules, changes: rules.some((x) => x.changes) };
}

function statusAt(r: RuleResult, x: number): RuleStatus {
  const met = r.op === 'min' ? x >= r.threshold - EPS : x <= r.threshold + EPS;
  if (!met) return 'fail';
  const band = r.watch_band;
  return band && x >= band[0] - EPS && x <= band[1] + EPS ? 'watch' : 'pass';
}

/** "session cmp-1: ndcg_cut.10 v2 with a, none with b; ...: a winner CHANGES when ..." */
function compareSummary(c: NonNullable<LabelAgreeOutput['compare']>): string {
  const changed = c.winners.filter((w) => w.changes);
  const what = changed
    .map((w) => `${w.metric} ${w.with_a ?? 'no winner'} with a, ${w.with_b ?? 'no winner'} with b`)
    .join('; ');
  const kept = (c.not_rescored ?? []).map((n) => `; ${n.metric} not re-scored: needs ${n.needs}`).join('');
  return `session ${c.session_id}: ${c.changes ? `${what}: a compare winner CHANGES` : `no compare winner changes (${c.winners.length} measures)`} when one grader replaces the other${kept}`;
}

function summaryOf(d: LabelAgreeOutput): string {
  const text = summaryWithoutCompare(d);
  return d.compare ? `${text}; ${compareSummary(d.compare)}` : text;
}

function summaryWithoutCompare(d: LabelAgreeOutput): string {
  const k = (x: number | null, ci: [number, number] | null) =>
    x === null ? 'undefined' : `${num(x, 3)}${ci ? ` (95% ${num(ci[0], 3)}–${num(ci[1], 3)})` : ''}`;
  const head =
    d.pairs === 0
      ? `no pair graded by both (${d.a.pairs} and ${d.b.pairs} pairs)`
      : `${d.pairs} pairs graded by both: agreement ${pct(d.agreement ?? 0)}, kappa ${k(d.kappa, d.kappa95)}, linear-weighted kappa ${k(d.weighted_kappa, d.weighted_kappa95)}, kappa of relevant or not (grade >= ${d.relevance_level}) ${k(d.binary_kappa, null)}`;
  if (!d.verdict) return head;
  const rules = d.verdict.rules
    .map(
      (r) =>
        `${r.metric} ${r.with_a.numerator}/${r.with_a.denominator} ${r.with_a.status.toUpperCase()} with a, ${r.with_b.numerator}/${r.with_b.denominator} ${r.with_b.status.toUpperCase()} with b`,
    )
    .join('; ');
  return `${head}; run ${d.verdict.run_id}: ${rules || 'no top-1 rate rule to re-count'}: the verdict ${d.verdict.changes ? 'CHANGES' : 'does not change'} when one grader replaces the other`;
}
