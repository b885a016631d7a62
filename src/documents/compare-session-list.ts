/** `rgate compare --list --json`: the comparison sessions kept in the history, newest first. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

/** One stored comparison session, as the history lists it. */
export const CompareSessionRowSchema = Closed({
  session_id: Type.String(),
  suite: Type.String(),
  created_at: Type.String(),
  /** 'variants' (one per --set) or 'sweep' */
  kind: Type.String(),
  variant_count: Type.Integer({ minimum: 0 }),
  /** one line for listings, e.g. "v1 weighting_mode=uniform | v2 weighting_mode=evidence_outcome_bias" */
  summary: Type.String(),
});
export type CompareSessionRow = Static<typeof CompareSessionRowSchema>;

export const CompareSessionListSchema = Type.Array(CompareSessionRowSchema, {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/compare-session-list.json',
  title: 'rgate compare --list --json',
});
export type CompareSessionList = Static<typeof CompareSessionListSchema>;
