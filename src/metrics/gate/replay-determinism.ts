import type { QueryRecord } from '../../documents/index.js';
import type { GateContext } from './_context.js';
import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/**
 * The one definition of "this query replays deterministically", shared by this measure and the
 * replay proof (harness/replay-proof.ts): every replay was observed (no `undefined`) and produced the
 * same fingerprint. A fingerprint holds the error kind, not its text, so an error of the same kind in
 * every replay is stable (a deterministic failure, counted by error_rate), while "timed out on replay
 * 3 only" is not.
 */
export function replayStable(fingerprints: readonly (string | undefined)[]): boolean {
  const first = fingerprints[0];
  return first !== undefined && fingerprints.every((f) => f === first);
}

/** A query's fingerprint in each replay 1..replays, `undefined` where that replay did not observe it. */
function fingerprintsOf(ctx: GateContext, q: QueryRecord): (string | undefined)[] {
  const obs = ctx.all(q);
  const out: (string | undefined)[] = [];
  for (let r = 1; r <= ctx.input.replays; r++) out.push(obs.find((o) => o.replay === r)?.fingerprint);
  return out;
}

export const replayDeterminism: GateMeasure = {
  id: 'replay_determinism',
  help:
    'numerator: queries whose answer fingerprint is identical in every replay, with every replay observed ' +
    '(an error of the same kind in every replay is identical: a deterministic failure, which error_rate ' +
    'counts); denominator: queries of the query set. The replay proof uses the same definition.',
  perQuery(ctx) {
    return [perQueryRate(this.id, ctx, (q) => replayStable(fingerprintsOf(ctx, q)))];
  },
};
