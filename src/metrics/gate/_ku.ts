/**
 * What the KU measures (DS012 context matching) share: the answer they judge (replay 1, the one the
 * report shows; replay determinism says whether the others agree) and the over-budget units of an answer.
 */
import type { KuLevel, Observation, QueryRecord } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import type { GateMeasure } from './_types.js';
import { perQueryCounts } from './_values.js';

/** Replay 1's observation of a query (undefined when it was never observed). */
export function kuAnswer(ctx: GateContext, q: QueryRecord): Observation | undefined {
  return ctx.first(q);
}

/** The level of a unit as the answer states it, else as the pinned corpus records it. */
export function unitLevel(ctx: GateContext, id: string, stated: KuLevel | undefined): KuLevel | undefined {
  return stated ?? ctx.corpusById.get(id)?.level;
}

export interface OverBudgetDecision {
  id: string;
  resolution: 'children' | 'whole' | 'truncated';
}

/**
 * Units of an answer that were over the per-unit size budget: those the answer's trace lists, plus KB
 * units it loaded longer than the `max_chars_per_file` in force that its trace does not mention (a
 * matcher that does not report what it loaded whole is still caught loading it whole). Trace order,
 * then kbUnits order.
 */
export function overBudgetUnits(o: Observation): OverBudgetDecision[] {
  const out: OverBudgetDecision[] = (o.ku?.over_budget ?? []).map((u) => ({
    id: u.id,
    resolution: u.resolution,
  }));
  const listed = new Set(out.map((u) => u.id));
  const budget = o.budgets?.max_chars_per_file;
  if (budget !== undefined) {
    for (const u of o.ku?.units ?? []) {
      if (u.origin === 'kb' && u.chars > budget && !listed.has(u.id)) {
        out.push({ id: u.id, resolution: 'whole' });
        listed.add(u.id);
      }
    }
  }
  return out;
}

/**
 * The over-budget measures (DS012 step 3): the share of a replay-1 answer's over-budget units that
 * were resolved one way (split into children, or loaded whole). `what` words the numerator.
 */
export function overBudgetMeasure(
  id: string,
  resolution: OverBudgetDecision['resolution'],
  what: string,
): GateMeasure {
  return {
    id,
    help:
      `numerator: over-budget units of replay-1 ResolvedIntents ${what}; denominator: relevant units over ` +
      'the per-unit size budget in those answers (listed in retrievalTrace.overBudget, or KB units loaded longer ' +
      'than the max_chars_per_file in force), resolved as children, whole or truncated. Source: DS012.',
    perQuery(ctx) {
      return [
        perQueryCounts(id, ctx, (q) => {
          const o = kuAnswer(ctx, q);
          const units = o?.ok ? overBudgetUnits(o) : [];
          return {
            numerator: units.filter((u) => u.resolution === resolution).length,
            denominator: units.length,
          };
        }),
      ];
    },
  };
}
