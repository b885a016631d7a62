/**
 * `rgate upload --json`: what the server did with a run (one object), and `rgate upload --pending
 * --json`: what it did with each upload kept pending (an array, runs first, then sessions).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed, Const, OneOf } from './keywords.js';
import { VsBaseGateSchema } from './gate-result.js';

const url = Type.String({ minLength: 1 });
/** the server could not be reached, or kept failing (5xx, 429) after every retry: try again later */
const unreachable = { kind: Const('unreachable'), reason: Type.String() };
/** the server answered no (4xx): retrying the same request cannot help */
const refused = { kind: Const('refused'), status: Type.Integer(), reason: Type.String() };

/** One run sent: stored (new on the server), exists (the server had it: nothing new), unreachable or refused. */
/** a branch's run: its page against the base branch's run, when the server has one to compare with */
const vsBase = Type.Optional(url);
/** the server's judgment of the run's vs-base gate rules, when its gate has any */
const vsBaseGate = Type.Optional(VsBaseGateSchema);

export const RunUploadOutcomeSchema = OneOf([
  Closed({ kind: Const('stored'), runId: Type.String(), url, vsBase, vsBaseGate }),
  Closed({ kind: Const('exists'), runId: Type.String(), url, vsBase, vsBaseGate }),
  Closed(unreachable),
  Closed(refused),
]);
export type RunUploadOutcome = Static<typeof RunUploadOutcomeSchema>;

/** One comparison session sent (its runs went first). */
export const SessionUploadOutcomeSchema = OneOf([
  Closed({ kind: Const('stored'), sessionId: Type.String(), url }),
  Closed({ kind: Const('exists'), sessionId: Type.String(), url }),
  Closed(unreachable),
  Closed(refused),
]);
export type SessionUploadOutcome = Static<typeof SessionUploadOutcomeSchema>;

export const UploadOutputSchema = Type.Unsafe<RunUploadOutcome>({
  ...RunUploadOutcomeSchema,
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/upload-result.json',
  title: 'rgate upload --json',
});
export type UploadOutput = Static<typeof UploadOutputSchema>;

const run_id = Type.String();
const session_id = Type.String();

/** One pending upload sent: the run or session it held, and what the server did with it. */
export const PendingUploadOutcomeSchema = OneOf([
  Closed({ run_id, kind: Const('stored'), runId: Type.String(), url, vsBase, vsBaseGate }),
  Closed({ run_id, kind: Const('exists'), runId: Type.String(), url, vsBase, vsBaseGate }),
  Closed({ run_id, ...unreachable }),
  Closed({ run_id, ...refused }),
  Closed({ session_id, kind: Const('stored'), sessionId: Type.String(), url }),
  Closed({ session_id, kind: Const('exists'), sessionId: Type.String(), url }),
  Closed({ session_id, ...unreachable }),
  Closed({ session_id, ...refused }),
]);
export type PendingUploadOutcome = Static<typeof PendingUploadOutcomeSchema>;

export const UploadPendingOutputSchema = Type.Array(PendingUploadOutcomeSchema, {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://rgate.dev/schemas/upload-pending-result.json',
  title: 'rgate upload --pending --json',
});
export type UploadPendingOutput = Static<typeof UploadPendingOutputSchema>;
