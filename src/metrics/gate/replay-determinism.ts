import type { QueryRecord } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

function replayDeterministic(ctx: GateContext, q: QueryRecord): boolean {
  const obs = ctx.all(q);
  if (obs.length < ctx.input.replays || obs.length === 0 || obs.some((o) => !o.ok)) return false;
  return obs.every((o) => o.fingerprint === obs[0]!.fingerprint);
}

export const replayDeterminism: GateMeasure = {
  id: 'replay_determinism',
  help:
    'numerator: queries whose answer fingerprint is identical in every replay (all replays observed, none ' +
    'errored); denominator: queries of the query set.',
  perQuery(ctx) {
    return [perQueryRate(this.id, ctx, (q) => replayDeterministic(ctx, q))];
  },
};
