/** `rgate verify --json`: each fixture set checked against its freeze.json. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

/** One file's content hash, as freeze.json holds it and as the file hashes now. */
export const VerifyCheckSchema = Closed({
  part: StringEnum(['corpus', 'query_set', 'config', 'freeze']),
  /** the file's path */
  file: Type.String(),
  ok: Type.Boolean(),
  /** what freeze.json says */
  expected: Type.String(),
  /** what the file holds now */
  actual: Type.String(),
});
export type VerifyCheck = Static<typeof VerifyCheckSchema>;

/** One set's verdict. */
export const VerifySetResultSchema = Closed({
  ok: Type.Boolean(),
  /** the set's folder */
  dir: Type.String(),
  name: Type.String(),
  artifact_id: Type.String(),
  /** the frozen version */
  version: Type.String(),
  checks: Type.Array(VerifyCheckSchema),
  /** one line per failed check: file, expected hash, actual hash */
  problems: Type.Array(Type.String()),
  /** corpus records and queries as the files hold them; judgments as freeze.json counts them */
  counts: Closed({ corpus_records: count, queries: count, judgments: count }),
});
export type VerifySetResult = Static<typeof VerifySetResultSchema>;

export const VerifyOutputSchema = Closed(
  {
    /** every set verified (the exit code is 0 exactly when this is true) */
    ok: Type.Boolean(),
    /** in the order the sets were named (default: every frozen set under fixtures/, by name) */
    sets: Type.Array(VerifySetResultSchema),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/verify-result.json',
    title: 'rgate verify --json',
  },
);
export type VerifyOutput = Static<typeof VerifyOutputSchema>;
