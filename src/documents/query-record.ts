import { Type, type Static } from '@sinclair/typebox';
import { Closed, ONE_WORD_PATTERN, OneWordId, StringMap } from './keywords.js';
import { KuQuerySchema } from './ku-judgment.js';
import { ProfileSchema } from './profile.js';
import { SelectionModeSchema } from './selection-mode.js';
import { JudgedBySchema } from './label.js';

const nonEmpty = Type.String({ minLength: 1 });
const strings = Type.Array(nonEmpty);

/** What a probe query expects of the answer. */
export const QueryExpectationSchema = Closed({
  selection_mode: Type.Optional(SelectionModeSchema),
  no_match: Type.Optional(Type.Boolean()),
});
export type QueryExpectation = Static<typeof QueryExpectationSchema>;

/** One query of a query set (one line of its JSONL file), with its judgments. */
export const QueryRecordSchema = Closed(
  {
    query_id: OneWordId(),
    text: Type.String(),
    profile: Type.Optional(ProfileSchema),
    exact_key: Type.Optional(nonEmpty),
    tags: Type.Optional(strings),
    /** graded judgments: record id -> integer grade (higher = more relevant; 0 = judged not relevant) */
    qrels: Type.Optional(StringMap(Type.Integer(), { propertyNames: { pattern: ONE_WORD_PATTERN } })),
    /** record id -> who judged that qrels entry and when (entries merged by `rgate label merge`) */
    judged_by: Type.Optional(StringMap(JudgedBySchema)),
    useful_ids: Type.Optional(strings),
    useful_paths: Type.Optional(strings),
    must_include_signals_any: Type.Optional(strings),
    must_include_tags_any: Type.Optional(strings),
    must_exclude_tags_all: Type.Optional(strings),
    expect: Type.Optional(QueryExpectationSchema),
    embedding: Type.Optional(Type.Array(Type.Number())),
    /** knowledge-unit context matching (DS012): conversation units given with the intent, level and guidance judgments */
    ku: Type.Optional(KuQuerySchema),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/query-record.json',
    title: 'rgate query record (one JSONL line)',
  },
);
export type QueryRecord = Static<typeof QueryRecordSchema>;
