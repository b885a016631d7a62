import { perQueryRate } from './_values.js';
import type { GateMeasure } from './_types.js';

/**
 * "This query replays deterministically" is EvidenceIndex.sameInEveryReplay over the fingerprint, the
 * one definition this measure and the replay proof (harness/replay-proof.ts) share. A fingerprint
 * holds the error kind, not its text, so an error of the same kind in every replay is stable (a
 * deterministic failure, counted by error_rate), while "timed out on replay 3 only" is not.
 */
export const replayDeterminism: GateMeasure = {
  id: 'replay_determinism',
  help:
    'numerator: queries whose answer fingerprint is identical in every replay, with every replay observed ' +
    '(an error of the same kind in every replay is identical: a deterministic failure, which error_rate ' +
    'counts); denominator: queries of the query set, less those a run that stopped early did not observe ' +
    'in every replay and whose observed replays agree (nothing is shown either way for them). The replay ' +
    'proof uses the same definition.',
  perQuery(ctx) {
    return [
      perQueryRate(this.id, ctx, (q) => ctx.evidence.sameInEveryReplay(q.query_id, (o) => o.fingerprint)),
    ];
  },
};
