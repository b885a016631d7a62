/**
 * The labeling queue (`rgate label queue`) and the judgments a reviewer hands back (`rgate label
 * merge`): the unjudged documents that some variant put in its top k, one line per (query, doc), and
 * the graded lines the queue page downloads.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const, StringEnum } from './keywords.js';

export const LABEL_QUEUE_SCHEMA_VERSION = 'rgate-label-queue/1';

const nonEmpty = Type.String({ minLength: 1 });
const count = Type.Integer({ minimum: 0 });

/** A calendar date, as freeze.json writes them. */
export const IsoDateSchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** One ranking pooled into the queue: a variant of a comparison, a replay of a run, or a pooled system. */
export const LabelSourceSchema = Closed({
  /** v1, v2 ... (comparison variants), r1, r2 ... (replays of one run) or s1, s2 ... (pooled systems) */
  id: Type.String(),
  label: Type.String(),
  run_id: Type.String(),
});
export type LabelSource = Static<typeof LabelSourceSchema>;

/** One line of queue.jsonl: an unjudged (query, doc) pair some source ranked in its top k. */
export const LabelQueueItemSchema = Closed({
  query_id: Type.String(),
  query_text: Type.String(),
  doc_id: Type.String(),
  title: Type.Optional(Type.String()),
  text: Type.String(),
  source_path: Type.Optional(Type.String()),
  /** source ids (LabelSource.id) that ranked the doc in their top k, in source order (absent in a blind pool) */
  surfaced_by: Type.Optional(Type.Array(Type.String())),
  /** best (smallest) 1-based rank any source gave it (absent in a blind pool) */
  best_rank: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type LabelQueueItem = Static<typeof LabelQueueItemSchema>;

/** The queue as the page and `--json` see it: where it came from, then the items in review order. */
export const LabelQueueSchema = Closed({
  schema: Const(LABEL_QUEUE_SCHEMA_VERSION),
  /** the run, comparison session or pool (`rgate label pool`) the rankings come from */
  origin: Closed({ kind: StringEnum(['run', 'compare', 'pool']), id: Type.String(), suite: Type.String() }),
  /**
   * a pool's queue hides who retrieved what: items carry no surfaced_by / best_rank and come in
   * query id, doc id order (absent = false)
   */
  blind: Type.Optional(Type.Boolean()),
  fixture: Type.String(),
  corpus_id: Type.String(),
  query_set_id: Type.String(),
  /** true when the query set is no longer the one the run saw (judgments merged since): judged-ness is today's */
  query_set_changed: Type.Boolean(),
  k: Type.Integer({ minimum: 1 }),
  sources: Type.Array(LabelSourceSchema),
  /** queries with at least one qrels entry (only those are pooled, as trec_eval measures only them) */
  judged_queries: count,
  /** ranked ids the corpus does not hold (a system under test may return anything): not queued */
  not_in_corpus: count,
  /**
   * `--priority verdict`: the run whose verdict the queue was ordered for, and how many of the first
   * items are pairs whose grade could change it (its gate's verdict_pairs still unjudged); the rest
   * follow in the usual order. With `--session`: the comparison whose winners the first items could
   * flip (its winner_holes), in place of a run. Absent otherwise
   */
  verdict: Type.Optional(
    Closed({ run_id: Type.Optional(Type.String()), session_id: Type.Optional(Type.String()), pairs: count }),
  ),
  items: Type.Array(LabelQueueItemSchema),
});
export type LabelQueue = Static<typeof LabelQueueSchema>;

/** One line of a judgments file (what the queue page downloads; `rgate label merge` reads it). */
export const LabelJudgmentSchema = Closed(
  {
    query_id: nonEmpty,
    doc_id: nonEmpty,
    /** 0 not relevant, 1 marginal, 2 relevant, 3 highly relevant (any integer >= 0 is accepted) */
    grade: Type.Integer({ minimum: 0 }),
    /** when the reviewer graded it; `--date` stands in for lines without one */
    date: Type.Optional(IsoDateSchema),
    /** the queue it was graded from (a run or session id), for the record */
    queue: Type.Optional(Type.String()),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/label-judgment.json',
    title: 'rgate judgment (one JSONL line of a judgments file)',
  },
);
export type LabelJudgment = Static<typeof LabelJudgmentSchema>;

/** Who judged a qrels entry and when, kept beside the grade in the query record. */
export const JudgedBySchema = Closed({ judge: nonEmpty, date: IsoDateSchema });
export type JudgedBy = Static<typeof JudgedBySchema>;

/** Unjudged documents in one variant's top k (trec_eval's `judged`, counted instead of averaged). */
export const JudgmentHolesSchema = Closed({
  k: Type.Integer({ minimum: 1 }),
  /** queries with at least one qrels entry */
  queries: count,
  /** ranked positions 1..k filled over those queries */
  ranked: count,
  /** of them, documents the query's qrels do not judge */
  unjudged: count,
  queries_with_unjudged: count,
});
export type JudgmentHoles = Static<typeof JudgmentHolesSchema>;
