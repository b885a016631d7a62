import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, Closed } from './keywords.js';

/** One line of a BEIR queries.jsonl (`_id`, `text`, optional `title` and `metadata`), imported into a QueryRecord. */
export const BeirQueryLineSchema = Closed(
  {
    _id: Type.String({ minLength: 1 }),
    text: Type.String(),
    title: Type.Optional(Type.String()),
    metadata: Type.Optional(AnyObject()),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/beir-query.json',
  },
);
export type BeirQueryLine = Static<typeof BeirQueryLineSchema>;
