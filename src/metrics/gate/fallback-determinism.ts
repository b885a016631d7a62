import { canonicalJson } from '../../core/canonical-json.js';
import type { Observation } from '../../documents/index.js';
import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/** The parts of an answer that make up its fallback outcome. */
export function fallbackOutcome(o: Observation): string {
  return canonicalJson({
    ok: o.ok,
    mode: o.selection_mode ?? null,
    stage: o.fallback.stage ?? null,
    triggered: o.fallback.triggered,
    selected: o.selected_id ?? null,
    ranked: o.ranked.map((r) => r.id),
  });
}

export const fallbackDeterminism: GateMeasure = {
  id: 'fallback_determinism',
  help:
    'numerator: queries whose fallback outcome (selection mode, fallback stage, selected id, ranked ids) is ' +
    'identical in every replay, with every replay observed and none errored; denominator: queries that took a ' +
    'fallback (fallback.triggered or a fallback selection mode) in any replay, plus queries with an errored ' +
    'replay, less those a run that stopped early did not observe in every replay and whose observed replays ' +
    'agree. Source: seed 001 v1 ("fallback outcome identical for same input/corpus/config").',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) => {
        const obs = ctx.all(q);
        const errored = obs.some((o) => !o.ok);
        if (!errored && !obs.some((o) => ctx.tookFallback(o))) return null;
        const same = ctx.evidence.sameInEveryReplay(q.query_id, fallbackOutcome);
        // observed replays that differ are a finding; agreeing ones short of every replay show nothing
        if (same !== true) return same;
        return !errored;
      }),
    ];
  },
};
