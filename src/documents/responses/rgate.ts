/** rgate's own response format: an Observation-shaped answer, the easiest one for a team to emit. */
import { Type, type Static } from '@sinclair/typebox';
import { SelectionModeSchema } from '../selection-mode.js';
import { Closed, OrNull, StringMap } from '../keywords.js';

const count = Type.Integer({ minimum: 0 });

export const RgateResponseItemSchema = Closed({
  id: Type.String({ minLength: 1 }),
  source_path: Type.Optional(Type.String()),
  score: Type.Number(),
  score_breakdown: Type.Optional(StringMap(Type.Number())),
  tags: Type.Optional(Type.Array(Type.String())),
  chars: Type.Optional(count),
});
export type RgateResponseItem = Static<typeof RgateResponseItemSchema>;

// our own format: strict, so a typo (`selectedId`) is caught rather than silently ignored
export const RgateResponseSchema = Closed(
  {
    selection_mode: Type.Optional(SelectionModeSchema),
    selected_id: Type.Optional(OrNull(Type.String())),
    source_path: Type.Optional(OrNull(Type.String())),
    no_match_reason: Type.Optional(Type.String()),
    ranked: Type.Optional(Type.Array(RgateResponseItemSchema)),
    /** TREC-style alias of `ranked` (`{results: [{id, score}]}`) */
    results: Type.Optional(Type.Array(RgateResponseItemSchema)),
    fallback: Type.Optional(
      Closed({
        triggered: Type.Boolean(),
        stage: Type.Optional(OrNull(Type.String())),
        attempts: Type.Optional(Type.Array(Type.String())),
      }),
    ),
    usage: Type.Optional(
      Closed({ files: Type.Optional(count), chars: Type.Optional(count), tokens: Type.Optional(count) }),
    ),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/responses/rgate.json',
    title: "rgate's own response format",
    anyOf: [
      { required: ['ranked'], properties: { ranked: {} } },
      { required: ['results'], properties: { results: {} } },
      { required: ['selection_mode'], properties: { selection_mode: {} } },
    ],
  },
);
export type RgateResponse = Static<typeof RgateResponseSchema>;
