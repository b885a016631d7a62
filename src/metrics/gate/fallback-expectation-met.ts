import type { Observation, QueryRecord } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/** Did a probe query's replay-1 answer meet its expectation? */
function expectationMet(ctx: GateContext, q: QueryRecord, o: Observation | undefined): boolean {
  if (!o || !o.ok) return false;
  const e = q.expect ?? {};
  // a ranking-only answer (no selection mode) has one way to say "no match": return nothing
  // (docs/DECISIONS.md 2026-11-26: an empty ranking meets no_match)
  const noMatch =
    o.selection_mode === 'no_match' ||
    (o.selection_mode === undefined && o.ranked.length === 0 && (o.unranked ?? []).length === 0);
  if (e.no_match === true && (!noMatch || Boolean(o.selected_id))) return false;
  // no_match answers select nothing: there is no record to judge
  if (e.selection_mode === 'no_match') return noMatch;
  if (e.selection_mode !== undefined && o.selection_mode !== e.selection_mode) return false;
  // where judged, the selected record must be useful too
  if (e.no_match !== true && ctx.hasJudgment(q)) {
    return ctx.judgeTop1(q, o).judgment === 'useful';
  }
  return true;
}

export const fallbackExpectationMet: GateMeasure = {
  id: 'fallback_expectation_met',
  help:
    'numerator: probe queries whose replay-1 answer has the expected selection_mode (expect.no_match: mode ' +
    '"no_match" and nothing selected, or, from an answer that names no selection mode (a plain ranking), ' +
    'nothing returned) and, where the query has a judgment, a useful selected record; ' +
    'denominator: probe queries (expect.selection_mode not a semantic-win mode: a fallback mode or no_match; or ' +
    'expect.no_match true). ' +
    'Errored requests stay in the denominator and fail. Probes the system cannot take (no way to receive ' +
    'their input, e.g. no {exact_key} in its request) are not counted: the report lists them apart.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) =>
        ctx.isProbe(q) && ctx.notApplicable(q) === undefined ? expectationMet(ctx, q, ctx.first(q)) : null,
      ),
    ];
  },
};
