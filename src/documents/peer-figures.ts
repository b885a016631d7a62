import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

/**
 * A figure as the system's own project computes it (its harness), reproduced by rgate and shown
 * beside rgate's nearest measure, with why the two differ. Informational: never gated.
 */
export const PeerFigureSchema = Closed({
  /** e.g. `cortex_phase2.median_ndcg_5` */
  id: Type.String(),
  /** who computes it and how, in one line */
  source: Type.String(),
  /** the peer's name: `memory-cli evaluate`, `cortex Phase 2 harness` (reports before it: none) */
  peer: Type.Optional(Type.String()),
  value: Type.Number(),
  /** a rate's counts as the peer states them (`1/1` by default included); absent for a median or mean */
  numerator: Type.Optional(count),
  denominator: Type.Optional(count),
  per_query: Type.Array(Closed({ query_id: Type.String(), value: Type.Number() })),
  /** rgate's nearest measure and its value on this run (null: not measured, e.g. no qrels) */
  beside: Closed({ metric: Type.String(), value: OrNull(Type.Number()) }),
  /** one sentence on why the two differ */
  why: Type.String(),
});
export type PeerFigure = Static<typeof PeerFigureSchema>;
