/**
 * Which unjudged pairs can change the verdict. The top-1 rates count an unjudged top-1 as not
 * useful and leave a benchmark query with no judgment out; grading either moves the rate, within a
 * range this computes (every such top-1 graded not useful, or useful), as the top-1 split does for
 * the count. A rule whose status differs at either end can flip; its pairs can change the verdict
 * when the verdict itself differs there, the other rules and the checklist as they are.
 */
import type { GateResult, QueryOutcome, RuleResult, RuleStatus, Verdict } from '../src/documents/index.js';
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { isSemanticWin } from '../src/metrics/index.js';

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

function verdictOf(statuses: readonly RuleStatus[], checklistFails: boolean): Verdict {
  if (checklistFails || statuses.includes('fail')) return 'FAIL';
  return statuses.includes('watch') ? 'WATCH' : 'PASS';
}

/** The gate with each top-1 rate rule's holes and the verdict's pairs (unchanged when it has no such rule). */
export function withVerdictHoles(
  gate: GateResult,
  queries: readonly QueryOutcome[],
  selection: boolean,
  semanticWinModes: readonly string[],
  qrelsOf: QrelsOf,
): GateResult {
  if (gate.overruled) return gate;
  const holes = holesOf(queries, qrelsOf);
  const flippable = new Set<number>();
  const lows: RuleStatus[] = [];
  const highs: RuleStatus[] = [];
  let any = false;
  const rules = gate.rules.map((r, i): RuleResult => {
    lows.push(r.status);
    highs.push(r.status);
    if (!TOP1_RATES.has(r.metric) || r.baseline || r.numerator === undefined || r.denominator === undefined)
      return r;
    any = true;
    // a useful top-1 counts for top1_useful_rate only as a semantic win (where there is a selection step)
    const wouldCount = (h: Hole) =>
      r.metric === 'top1_useful_any_mode' ||
      !selection ||
      isSemanticWin('useful', h.selection_mode, semanticWinModes);
    const added = holes.filter((h) => !h.counted).length;
    const den = r.denominator + added;
    if (den === 0) return r;
    const low = r.numerator / den;
    const high = (r.numerator + holes.filter(wouldCount).length) / den;
    const can_flip = holes.length > 0 && (statusAt(r, low) !== r.status || statusAt(r, high) !== r.status);
    lows[i] = statusAt(r, low);
    highs[i] = statusAt(r, high);
    if (can_flip) flippable.add(i);
    return { ...r, holes: { unjudged: holes.length, low, high, can_flip } };
  });
  if (!any) return gate;
  const checklistFails = gate.checklist.some((c) => !c.ok);
  const changes =
    flippable.size > 0 &&
    (verdictOf(lows, checklistFails) !== gate.verdict || verdictOf(highs, checklistFails) !== gate.verdict);
  return {
    ...gate,
    rules,
    verdict_pairs: changes ? holes.map((h) => ({ query_id: h.query_id, doc_id: h.doc_id })) : [],
  };
}
