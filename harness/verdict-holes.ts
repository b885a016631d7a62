/**
 * Which unjudged pairs can change the verdict. The top-1 rates count an unjudged top-1 as not
 * useful and leave a benchmark query with no judgment out; grading either moves the rate, within a
 * range this computes (every such top-1 graded not useful, or useful), as the top-1 split does for
 * the count. A ranking measure's rule reads the measure scored again with the unjudged documents
 * within its depth graded 0 or the top grade (src/metrics/_ranking-holes.ts). A rule whose status
 * differs at either end can flip; its pairs can change the verdict when the verdict itself differs
 * there, the checklist as it is.
 */
import type { GateResult, QueryOutcome, RuleResult, RuleStatus, Verdict } from '../src/documents/index.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { isSemanticWin, type RankingHoleFill } from '../src/metrics/index.js';

const TOP1_RATES = new Set(['top1_useful_rate', 'top1_useful_any_mode']);
const EPS = 1e-12;

/** A query's qrels (doc id -> grade), as its record holds them now. */
export type QrelsOf = (queryId: string) => Readonly<Record<string, number>> | undefined;

interface Hole {
  query_id: string;
  doc_id: string;
  /** already in the rate's denominator (a judged query whose top-1 is unjudged) */
  counted: boolean;
  selection_mode: string | undefined;
}

/**
 * The benchmark top-1s a grade could move: no judgment covers them (top1 unjudged), or the qrels
 * decided them not useful only because the document has no qrels line (an unjudged hole the rule
 * reads as not relevant, the pairs a pool queues).
 */
function holesOf(queries: readonly QueryOutcome[], qrelsOf: QrelsOf): Hole[] {
  const out: Hole[] = [];
  for (const q of queries) {
    if (q.kind !== 'benchmark') continue;
    const doc = q.actual.selected_id ?? q.actual.top_ids[0];
    if (doc === undefined) continue;
    const qrelsHole =
      q.top1 === 'not_useful' && q.top1_by === 'qrels' && !Object.hasOwn(qrelsOf(q.query_id) ?? {}, doc);
    if (q.top1 !== 'unjudged' && !qrelsHole) continue;
    out.push({
      query_id: q.query_id,
      doc_id: doc,
      counted: q.judged !== false,
      selection_mode: q.actual.selection_mode,
    });
  }
  return out.sort((a, b) => compareCodeUnits(a.query_id, b.query_id));
}

function statusAt(r: RuleResult, x: number): RuleStatus {
  const met = r.op === 'min' ? x >= r.threshold - EPS : x <= r.threshold + EPS;
  if (!met) return 'fail';
  const band = r.watch_band;
  return band && x >= band[0] - EPS && x <= band[1] + EPS ? 'watch' : 'pass';
}

const RANK: Record<RuleStatus, number> = { pass: 0, watch: 1, fail: 2 };

function verdictOf(statuses: readonly RuleStatus[], checklist: Verdict): Verdict {
  if (checklist === 'FAIL' || statuses.includes('fail')) return 'FAIL';
  return checklist === 'WATCH' || statuses.includes('watch') ? 'WATCH' : 'PASS';
}

/**
 * The checklist's part of the verdict, as it is at either end (no grade changes it): a failing item
 * that left the verdict at WATCH is warn-level; under a FAIL it is read as failing.
 */
function checklistLevel(gate: GateResult): Verdict {
  if (!gate.checklist.some((c) => !c.ok)) return 'PASS';
  return gate.verdict === 'FAIL' ? 'FAIL' : 'WATCH';
}

/** A rule's compared value from its measure's value: the value itself, or its delta or uplift over the baseline. */
function compared(r: RuleResult, v: number): number | undefined {
  if (!r.baseline) return v;
  const b = r.baseline.value;
  if (b === null) return undefined;
  return r.baseline.comparison === 'uplift' ? (b === 0 ? undefined : (v - b) / b) : v - b;
}

interface Reach {
  holes: RuleResult['holes'];
  pairs: readonly { query_id: string; doc_id: string }[];
  statuses: RuleStatus[];
}

/** A top-1 rate rule's range: its holes graded not useful (low) or useful (high). */
function top1Reach(
  r: RuleResult,
  holes: readonly Hole[],
  selection: boolean,
  modes: readonly string[],
): Reach | undefined {
  if (!TOP1_RATES.has(r.metric) || r.baseline || r.numerator === undefined || r.denominator === undefined)
    return undefined;
  // a useful top-1 counts for top1_useful_rate only as a semantic win (where there is a selection step)
  const wouldCount = (h: Hole) =>
    r.metric === 'top1_useful_any_mode' || !selection || isSemanticWin('useful', h.selection_mode, modes);
  const den = r.denominator + holes.filter((h) => !h.counted).length;
  if (den === 0) return undefined;
  const low = r.numerator / den;
  const high = (r.numerator + holes.filter(wouldCount).length) / den;
  const statuses = [statusAt(r, low), statusAt(r, high)];
  const can_flip = holes.length > 0 && statuses.some((s) => s !== r.status);
  return {
    holes: { unjudged: holes.length, low, high, can_flip },
    pairs: holes.map((h) => ({ query_id: h.query_id, doc_id: h.doc_id })),
    statuses,
  };
}

/** A ranking measure rule's range: the measure scored again with its holes graded 0 or the top grade. */
function rankingReach(r: RuleResult, fill: RankingHoleFill | undefined): Reach | undefined {
  if (!fill || r.observed === null || r.insufficient || fill.low === undefined || fill.high === undefined)
    return undefined;
  const low = compared(r, fill.low);
  const high = compared(r, fill.high);
  if (low === undefined || high === undefined) return undefined;
  const statuses = [statusAt(r, low), statusAt(r, high)];
  const can_flip = fill.pairs.length > 0 && statuses.some((s) => s !== r.status);
  return {
    holes: { unjudged: fill.pairs.length, low, high, can_flip, depth: fill.depth, top_grade: fill.top_grade },
    pairs: fill.pairs,
    statuses,
  };
}

/**
 * The gate with each top-1 rate and ranking measure rule's holes, and the verdict's pairs (the gate
 * unchanged when it has no such rule). The verdict can change when the rules at their worst reachable
 * status, or at their best, give another verdict; its pairs are then the holes of every rule that
 * can flip. Each rule's extremes are the two fillings, so a mixed grading of many holes is read
 * through them.
 */
export function withVerdictHoles(
  gate: GateResult,
  queries: readonly QueryOutcome[],
  selection: boolean,
  semanticWinModes: readonly string[],
  qrelsOf: QrelsOf,
  rankingFills: readonly RankingHoleFill[] = [],
): GateResult {
  if (gate.overruled) return gate;
  const holes = holesOf(queries, qrelsOf);
  const fills = new Map(rankingFills.map((f) => [f.metric, f]));
  const worst: RuleStatus[] = [];
  const best: RuleStatus[] = [];
  const flippable: Reach[] = [];
  let any = false;
  const rules = gate.rules.map((r): RuleResult => {
    const reach =
      top1Reach(r, holes, selection, semanticWinModes) ??
      (TOP1_RATES.has(r.metric) ? undefined : rankingReach(r, fills.get(r.metric)));
    const reachable = [r.status, ...(reach?.statuses ?? [])];
    worst.push(reachable.reduce((a, b) => (RANK[b] > RANK[a] ? b : a)));
    best.push(reachable.reduce((a, b) => (RANK[b] < RANK[a] ? b : a)));
    if (!reach) return r;
    any = true;
    if (reach.holes!.can_flip) flippable.push(reach);
    return { ...r, holes: reach.holes! };
  });
  if (!any) return gate;
  const checklist = checklistLevel(gate);
  const changes =
    flippable.length > 0 &&
    (verdictOf(worst, checklist) !== gate.verdict || verdictOf(best, checklist) !== gate.verdict);
  const seen = new Set<string>();
  const pairs = changes
    ? flippable
        .flatMap((f) => f.pairs)
        .filter((p) => {
          const key = `${p.query_id}\u0000${p.doc_id}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        })
        .sort((a, b) => compareCodeUnits(a.query_id, b.query_id) || compareCodeUnits(a.doc_id, b.doc_id))
    : [];
  return { ...gate, rules, verdict_pairs: pairs };
}
