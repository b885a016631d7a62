/** `rgate label queue|pool --json` and `rgate label merge --json`: what labelling wrote. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from './keywords.js';
import { FreezeActionSchema } from './freeze-result.js';
import { IsoDateSchema, LabelQueueSchema } from './label.js';

const count = Type.Integer({ minimum: 0 });

/** A queue written (queue.jsonl and queue.html): where its rankings came from and how much it holds. */
export const LabelQueueOutputSchema = Closed(
  {
    origin: LabelQueueSchema.properties.origin,
    fixture: Type.String(),
    k: Type.Integer({ minimum: 1 }),
    /** the ids of the rankings pooled (variants of a comparison, systems of a pool, or the run) */
    sources: Type.Array(Type.String()),
    judged_queries: count,
    /** pairs to grade */
    items: count,
    /** queries with at least one pair to grade */
    queries: count,
    not_in_corpus: count,
    /** `--priority verdict`: the run, and the pairs first in the queue that could change its verdict */
    verdict: Type.Optional(LabelQueueSchema.properties.verdict),
    query_set_changed: Type.Boolean(),
    /** the files written */
    files: Closed({ jsonl: Type.String(), html: Type.String() }),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/label-queue-result.json',
    title: 'rgate label queue|pool --json',
  },
);
export type LabelQueueOutput = Static<typeof LabelQueueOutputSchema>;

/** One line of the judgments file, merged. */
export const MergedJudgmentSchema = Closed({
  /** its line in the judgments file */
  line: Type.Integer({ minimum: 1 }),
  query_id: Type.String(),
  doc_id: Type.String(),
  grade: Type.Integer(),
  date: IsoDateSchema,
  /** added: new to the qrels; unchanged: the qrels (or an earlier line) held that grade already */
  action: StringEnum(['added', 'unchanged']),
});
export type MergedJudgment = Static<typeof MergedJudgmentSchema>;

export const LabelMergeOutputSchema = Closed(
  {
    set: Type.String(),
    dir: Type.String(),
    judge: Type.String(),
    /** judgments new to the qrels */
    added: count,
    /** lines that restate a grade the qrels (or an earlier line) already hold */
    unchanged: count,
    queries_touched: count,
    /** the date freeze.json got (the latest judgment date unless --date) */
    date: IsoDateSchema,
    /** false on --dry-run or when nothing was new */
    written: Type.Boolean(),
    judgments: Type.Array(MergedJudgmentSchema),
    /** the set re-frozen with the judgments: what freezing did and the version it holds */
    freeze: Type.Optional(
      Closed({ action: FreezeActionSchema, version: Type.String(), query_set_id: Type.String() }),
    ),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/label-merge-result.json',
    title: 'rgate label merge --json',
  },
);
export type LabelMergeOutput = Static<typeof LabelMergeOutputSchema>;
