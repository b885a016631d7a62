import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, Closed, OneWordId, StringEnum } from './keywords.js';

export const RECORD_KINDS = ['canonical', 'tactical'] as const;
export const RecordKindSchema = StringEnum(RECORD_KINDS);
export type RecordKind = Static<typeof RecordKindSchema>;

export const KU_LEVELS = ['summary', 'intermediate', 'leaf'] as const;
export const KuLevelSchema = StringEnum(KU_LEVELS);
export type KuLevel = Static<typeof KuLevelSchema>;

const nonEmpty = Type.String({ minLength: 1 });
const unit = Type.Number({ minimum: 0, maximum: 1 });
const dateTime = Type.String({ format: 'date-time' });

/** One corpus record after loading (BEIR `_id/title/text` is normalised into this). */
export const CorpusRecordSchema = Closed({
  id: OneWordId(),
  source_path: nonEmpty,
  title: Type.Optional(Type.String()),
  text: Type.String(),
  kind: RecordKindSchema,
  /** ISO-8601 */
  captured_at: dateTime,
  evidence: Type.Optional(unit),
  outcome: Type.Optional(unit),
  tags: Type.Optional(Type.Array(nonEmpty)),
  trust_class: Type.Optional(Type.String()),
  key: Type.Optional(nonEmpty),
  path_priority: Type.Optional(Type.Number()),
  level: Type.Optional(KuLevelSchema),
  parent_id: Type.Optional(nonEmpty),
  embedding: Type.Optional(Type.Array(Type.Number())),
  /** project_dir / document-tree capture: the file as it was snapshotted (src/snapshot importers) */
  source: Type.Optional(
    Closed({
      sha256: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
      size: Type.Integer({ minimum: 0 }),
      mtime: dateTime,
    }),
  ),
});
export type CorpusRecord = Static<typeof CorpusRecordSchema>;

/**
 * One line of a corpus JSONL file. Either rgate's own record (`id`, ...) or a BEIR record
 * (`_id`, `title`, `text`, `metadata?`), accepted as is; src/snapshot normalises both into a
 * CorpusRecord, filling `source_path` (= id), `kind` ('canonical') and `captured_at` (the config's
 * `as_of`) when absent. Exactly one of `id` / `_id` must be present: checked by `corpusLineId` in
 * src/contracts (a oneOf would give ajv's unreadable "must match exactly one schema").
 */
export const CorpusLineSchema = Closed(
  {
    ...CorpusRecordSchema.properties,
    id: Type.Optional(OneWordId()),
    _id: Type.Optional(OneWordId()),
    source_path: Type.Optional(nonEmpty),
    kind: Type.Optional(RecordKindSchema),
    captured_at: Type.Optional(dateTime),
    // BEIR keeps per-document extras here; carried but not used.
    metadata: Type.Optional(AnyObject()),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/corpus-record.json',
    title: 'rgate corpus record (one JSONL line)',
  },
);
export type CorpusLine = Static<typeof CorpusLineSchema>;
