/** `rgate import <kind> --json`: the fixture set an import wrote. */
import { Type, type Static } from '@sinclair/typebox';
import { FreezeSchema } from './freeze.js';
import { Closed } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

/** A source file read, as PROVENANCE.md lists it. */
export const ImportSourceSchema = Closed({
  /** as it was read (absolute) */
  path: Type.String(),
  bytes: count,
  sha256: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
});

export const ImportOutputSchema = Closed(
  {
    /** the set's folder */
    dir: Type.String(),
    counts: Closed({ corpus_records: count, queries: count, judged_queries: count, judgments: count }),
    /** what is worth reading: dropped lines, gaps, warnings */
    notes: Type.Array(Type.String()),
    sources: Type.Array(ImportSourceSchema),
    /** freeze.json when the import froze the set (--freeze, or a set frozen before) */
    freeze: Type.Optional(FreezeSchema),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/import-result.json',
    title: 'rgate import --json',
  },
);
export type ImportOutput = Static<typeof ImportOutputSchema>;
