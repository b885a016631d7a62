/** `rgate probes add --json`: the probes written into a set, and the suites that run on it. */
import { Type, type Static } from '@sinclair/typebox';
import { FreezeSchema } from './freeze.js';
import { Closed, StringEnum } from './keywords.js';
import { QueryRecordSchema } from './query-record.js';

const count = Type.Integer({ minimum: 0 });
const ProbeKindSchema = StringEnum(['exact-key', 'no-match', 'path-priority']);

/** A suite of rgate.config.json on the set: the probe kinds its system can take, and why not the others. */
export const SuiteProbeFitSchema = Closed({
  suite: Type.String(),
  takes: Type.Array(ProbeKindSchema),
  not_applicable: Type.Array(Closed({ kind: ProbeKindSchema, reason: Type.String(), fix: Type.String() })),
});
export type SuiteProbeFit = Static<typeof SuiteProbeFitSchema>;

export const ProbesOutputSchema = Closed(
  {
    /** the set as named on the command line */
    set: Type.String(),
    /** false when the set already held exactly these probes: nothing was written */
    changed: Type.Boolean(),
    /** probes in the set now (= probes.length) */
    added: count,
    /** earlier generated probes that were replaced */
    replaced: count,
    /** queries of the set that are not generated probes, kept as they were */
    kept: count,
    notes: Type.Array(Type.String()),
    probes: Type.Array(QueryRecordSchema),
    /** by name; none without an rgate.config.json that runs a suite on the set */
    suites: Type.Array(SuiteProbeFitSchema),
    /** freeze.json when the set was frozen again (--freeze, or a set frozen before) */
    freeze: Type.Optional(FreezeSchema),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://rgate.dev/schemas/probes-result.json',
    title: 'rgate probes add --json',
  },
);
export type ProbesOutput = Static<typeof ProbesOutputSchema>;
