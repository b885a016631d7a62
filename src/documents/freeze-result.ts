/** `rgate freeze --json`: what freezing did, and freeze.json as it now stands. */
import { Type, type Static } from '@sinclair/typebox';
import { FreezeSchema } from './freeze.js';
import { Closed, StringEnum } from './keywords.js';

/** created: first freeze; unchanged: nothing to do (file untouched); bumped: a new version */
export const FreezeActionSchema = StringEnum(['created', 'unchanged', 'bumped']);

/** Which artifacts differ from the previous freeze (all true on a first freeze). */
export const FreezeChangedSchema = Closed({
  corpus: Type.Boolean(),
  query_set: Type.Boolean(),
  config: Type.Boolean(),
});

export const FreezeOutputSchema = Closed(
  {
    action: FreezeActionSchema,
    changed: FreezeChangedSchema,
    freeze: FreezeSchema,
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/freeze-result.json',
    title: 'rgate freeze --json',
  },
);
export type FreezeOutput = Static<typeof FreezeOutputSchema>;
