/**
 * `rgate score --format json` and the library's `score()`: trec_eval's numbers at full precision.
 * A value that is not a finite number (trec_eval's -nan, inf) is null, as JSON has no spelling for it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, OrNull, StringMap } from './keywords.js';

const measureValue = OrNull(Type.Number());

/** One query of the qrels (qrels order), with -q. */
export const ScoreQuerySchema = Closed({
  query_id: Type.String(),
  /** false: the run has no line for it (with -c it scores 0) */
  in_run: Type.Boolean(),
  /** by trec_eval's measure name (`P_5`, `ndcg_cut_10`); a text measure (relstring) is a string */
  measures: StringMap(Type.Unsafe<number | string | null>({ type: ['number', 'string', 'null'] })),
});
export type ScoreQuery = Static<typeof ScoreQuerySchema>;

/** The numbers, without the settings they were computed under (the library's `score()` returns this). */
export const TrecEvalJsonProperties = {
  /** the run's tag (its first line's last column) */
  run_id: Type.String(),
  /** queries evaluated */
  num_q: Type.Integer({ minimum: 0 }),
  /** trec_eval's `all` lines by measure name; absent with -n */
  all: Type.Optional(StringMap(measureValue)),
  /** with -q */
  queries: Type.Optional(Type.Array(ScoreQuerySchema)),
};
export const TrecEvalJsonSchema = Closed(TrecEvalJsonProperties);
export type TrecEvalJson = Static<typeof TrecEvalJsonSchema>;

/** The trec_eval flags the numbers depend on. */
export const ScoreSettingsSchema = Closed({
  /** -l: grade at or above which a document is relevant */
  relevance_level: Type.Integer(),
  /** -c */
  complete: Type.Boolean(),
  /** -J */
  judged_only: Type.Boolean(),
  /** -M; null without it */
  max_depth: OrNull(Type.Integer()),
  /** -N */
  docs_in_collection: Type.Integer({ minimum: 0 }),
});
export type ScoreSettings = Static<typeof ScoreSettingsSchema>;

export const ScoreJsonSchema = Closed(
  { settings: ScoreSettingsSchema, ...TrecEvalJsonProperties },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/score.json',
    title: 'rgate score --format json',
  },
);
export type ScoreJson = Static<typeof ScoreJsonSchema>;
