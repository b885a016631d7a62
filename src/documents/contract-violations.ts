import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

/**
 * Answers that were measured although they break the letter of their response contract, by rule
 * (the violation's JSON path with array indices as `*`, and its message), most frequent first. A
 * run whose every measured answer keeps its contract has none (the report leaves the field out).
 */
export const ContractViolationsSchema = Closed({
  contract: Type.String(),
  /** requests answered and measured (ok), all replays */
  measured: count,
  /** of those, the ones breaking the contract */
  violating: count,
  rules: Type.Array(
    Closed({
      /** e.g. `/files/*\/score_breakdown/combined_score: is required` */
      rule: Type.String(),
      /** violating requests with this rule, all replays */
      requests: count,
      queries: count,
      /** the first occurrence (query set order, then replay), as the validator worded it */
      first: Closed({ query_id: Type.String(), replay: Type.Integer({ minimum: 1 }), line: Type.String() }),
      /** up to 5 of the queries with this rule, query set order (reports before it: `first` only) */
      examples: Type.Optional(Type.Array(Type.String(), { maxItems: 5 })),
    }),
  ),
});
export type ContractViolations = Static<typeof ContractViolationsSchema>;
