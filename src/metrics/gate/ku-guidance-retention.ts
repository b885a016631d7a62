import { perQueryCounts } from './_values.js';
import { kuAnswer } from './_ku.js';
import type { GateMeasure } from './_types.js';

/** DS012 "Current-Turn Context Filtering": guidance units must survive evidence filtering. */
export const kuGuidanceRetention: GateMeasure = {
  id: 'ku_guidance_retention',
  help:
    "numerator: guidance units named in queries' `ku.required_guidance` judgments that the replay-1 " +
    'ResolvedIntent kept in its guidanceUnits (any role); denominator: all such units, over every query ' +
    'that names any. An errored request keeps none. Source: DS012 (guidance KUs are never dropped for ' +
    'lack of lexical overlap).',
  perQuery(ctx) {
    return [
      perQueryCounts(this.id, ctx, (q) => {
        const required = q.ku?.required_guidance ?? [];
        if (required.length === 0) return { numerator: 0, denominator: 0 };
        const o = kuAnswer(ctx, q);
        const kept = new Set(
          o?.ok ? (o.ku?.units ?? []).filter((u) => u.origin === 'guidance').map((u) => u.id) : [],
        );
        return { numerator: required.filter((g) => kept.has(g.id)).length, denominator: required.length };
      }),
    ];
  },
};
