import type { QueryRecord } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/** Excluded tags returned for a query in any replay (sorted, unique). */
export function leakedTagsOf(ctx: GateContext, q: QueryRecord): string[] {
  const out = new Set<string>();
  for (const o of ctx.all(q))
    for (const item of o.ranked) for (const t of ctx.leakedTags(q, item)) out.add(t);
  return [...out].sort();
}

export const sensitiveLeakRate: GateMeasure = {
  id: 'sensitive_leak_rate',
  help:
    'numerator: queries where any returned item, in any replay, carries a tag the query excludes ' +
    '(must_exclude_tags_all; item tags or its corpus record tags), plus queries with an errored request ' +
    '(no leak-free answer was shown); denominator: queries with exclusion rules. Lower is better.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) => {
        if ((q.must_exclude_tags_all?.length ?? 0) === 0) return null;
        const obs = ctx.all(q);
        return obs.length === 0 || obs.some((o) => !o.ok) || leakedTagsOf(ctx, q).length > 0;
      }),
    ];
  },
};
