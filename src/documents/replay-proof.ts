import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from './keywords.js';

const strings = Type.Array(Type.String());

export const ReplayDivergenceSchema = Closed({
  query_id: Type.String(),
  /** JSON path of the first field that differs, e.g. "/ranked/3/id" */
  field: Type.String(),
  /** replay numbers grouped by the fingerprint they produced */
  groups: Type.Array(
    Closed({ fingerprint: Type.String(), replays: Type.Array(Type.Integer({ minimum: 0 })) }),
  ),
});
export type ReplayDivergence = Static<typeof ReplayDivergenceSchema>;

/** Evidence that every replay produced the same answers, or where they parted. */
export const ReplayProofSchema = Closed({
  replays: Type.Integer({ minimum: 0 }),
  seed: Type.Integer(),
  /** the query order seed of each replay */
  order_seeds: Type.Array(Type.Integer()),
  /** sha256 over the sorted (query_id, fingerprint) pairs of each replay */
  rollups: strings,
  /** no query's observed replays differ and every planned replay of every query was observed */
  identical: Type.Boolean(),
  /**
   * identical; divergent: some query's observed replays differ; unproven: nothing differs but fewer
   * than every planned replay was observed (a run that stopped early), so determinism is not shown.
   * Absent in reports written before it (identical decides there)
   */
  status: Type.Optional(StringEnum(['identical', 'divergent', 'unproven'])),
  /** replays in which every query was observed (absent in older reports: all of them) */
  completed_replays: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * each attempted query's fingerprint per replay ("missing" for a replay that never ran it); one
   * entry when every replay gave the same (reports before that rule repeat it per replay)
   */
  per_query: Type.Array(Closed({ query_id: Type.String(), fingerprints: strings })),
  divergent: Type.Array(ReplayDivergenceSchema),
});
export type ReplayProof = Static<typeof ReplayProofSchema>;
