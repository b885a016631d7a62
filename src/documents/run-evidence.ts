import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

/**
 * How the run stood when it was reported: everything else in a report is a claim about these
 * requests, so every n/d and every sentence about replays is read against them.
 *  - complete: every planned request was made
 *  - down: the system under test answered none of the requests made and the run stopped
 *  - interrupted: stopped by a signal before every request was made
 *  - partial: an unfinished run (running, abandoned) reported as it stood
 */
export const RunStateSchema = StringEnum(['complete', 'down', 'interrupted', 'partial']);
export type RunState = Static<typeof RunStateSchema>;

/** What ran: the one account of attempted, answered, failed and never-run requests and replays. */
export const RunEvidenceSchema = Closed({
  state: RunStateSchema,
  replays: Closed({
    planned: count,
    /** replays in which every query of the set was observed */
    completed: count,
    /** replays in which at least one query was observed */
    started: count,
  }),
  requests: Closed({
    planned: count,
    /** made and recorded (answered + failed) */
    made: count,
    answered: count,
    failed: count,
    /** planned but never made (planned - made) */
    not_run: count,
  }),
});
export type RunEvidence = Static<typeof RunEvidenceSchema>;
