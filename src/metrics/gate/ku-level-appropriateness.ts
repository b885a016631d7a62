import type { Observation, QueryRecord } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import { perQueryCounts } from './_values.js';
import { kuAnswer, unitLevel } from './_ku.js';
import type { GateMeasure, QueryCounts } from './_types.js';

function counts(ctx: GateContext, q: QueryRecord, o: Observation | undefined): QueryCounts {
  const expected = q.ku?.expected_level;
  if (expected === undefined) return { numerator: 0, denominator: 0 };
  const kb = o?.ok ? (o.ku?.units ?? []).filter((u) => u.origin === 'kb') : [];
  // an errored or empty answer counts as one unit at the wrong level: a gate never passes on silence
  if (kb.length === 0) return { numerator: 0, denominator: 1 };
  let numerator = 0;
  for (const u of kb) {
    const at = unitLevel(ctx, u.id, u.level) === expected;
    // a child standing in for an over-budget unit at the expected level is that unit, loaded within budget
    const standsIn = u.split_from !== undefined && unitLevel(ctx, u.split_from, undefined) === expected;
    if (at || standsIn) numerator++;
  }
  return { numerator, denominator: kb.length };
}

/** DS012 "KU-Aware Context Construction", step 2: load units at the abstraction level the task needs. */
export const kuLevelAppropriateness: GateMeasure = {
  id: 'ku_level_appropriateness',
  help:
    "numerator: KB units (kbUnits) of the replay-1 ResolvedIntent at the level the query's `ku.expected_level` " +
    'judgment asks for, or loaded as children standing in for an over-budget unit at that level; denominator: ' +
    'KB units of those answers, over queries with an expected level (an errored or empty answer counts as ' +
    'one unit at the wrong level). Levels as the answer states them, else from the pinned corpus. Source: DS012.',
  perQuery(ctx) {
    return [perQueryCounts(this.id, ctx, (q) => counts(ctx, q, kuAnswer(ctx, q)))];
  },
};
