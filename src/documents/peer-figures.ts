import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull } from './keywords.js';

/**
 * A figure as the system's own project computes it (its harness), reproduced by rgate and shown
 * beside rgate's nearest measure, with why the two differ. Informational: never gated.
 */
export const PeerFigureSchema = Closed({
  /** e.g. `cortex_phase2.median_ndcg_5` */
  id: Type.String(),
  /** who computes it and how, in one line */
  source: Type.String(),
  value: Type.Number(),
  per_query: Type.Array(Closed({ query_id: Type.String(), value: Type.Number() })),
  /** rgate's nearest measure and its value on this run (null: not measured, e.g. no qrels) */
  beside: Closed({ metric: Type.String(), value: OrNull(Type.Number()) }),
  /** one sentence on why the two differ */
  why: Type.String(),
});
export type PeerFigure = Static<typeof PeerFigureSchema>;
