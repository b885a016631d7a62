/** `rgate init --json`: the files init wrote and what to do next. */
import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

export const InitWriteSchema = Closed({
  /** relative to the project folder; a folder ends in `/` */
  path: Type.String(),
  what: Type.String(),
});

export const InitOutputSchema = Closed(
  {
    /** the suite set up (absent for `rgate init --ci <kind>` alone, which writes only the CI file) */
    suite: Type.Optional(Type.String()),
    /** the response contract a command or http system is read with, when init chose one */
    contract: Type.Optional(Type.String()),
    wrote: Type.Array(InitWriteSchema),
    /** what the import of --from data said (counts, notes); absent with --ci alone */
    imported: Type.Optional(Type.Array(Type.String())),
    /** commands to run next */
    next: Type.Array(Type.String()),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/init-result.json',
    title: 'rgate init --json',
  },
);
export type InitOutput = Static<typeof InitOutputSchema>;
