/**
 * What went wrong, as the system under test said it: per query the first error (in replay order)
 * and per run the failed requests counted by error class. The class is the Observation's
 * `error.kind` as the adapters record it (timeout, crash = exited non-zero or killed, non_json,
 * contract_invalid, output_too_large, spawn_failed, http_status, connection_failed, an error
 * envelope's own code, ...); the text is its message and the tail of the system's stderr.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './keywords.js';

const count = Type.Integer({ minimum: 0 });

/** One error as a report shows it. */
export const ReportedErrorSchema = Closed({
  /** the error class (Observation error.kind) */
  kind: Type.String(),
  message: Type.String(),
  /** the last lines of the system's stderr (capped), where the system's own words usually are */
  stderr_tail: Type.Optional(Type.String()),
  replay: Type.Integer({ minimum: 1 }),
});
export type ReportedError = Static<typeof ReportedErrorSchema>;

/** A query's first error (lowest replay that errored), and how often and how it failed. */
export const QueryErrorSchema = Closed({
  ...ReportedErrorSchema.properties,
  /** replays of this query that errored */
  errored_replays: count,
  /** replays of this query that were run (absent in older reports: every planned replay) */
  observed_replays: Type.Optional(count),
  /** every class seen across its replays, sorted: one class in every replay is a deterministic failure */
  kinds: Type.Array(Type.String()),
});
export type QueryError = Static<typeof QueryErrorSchema>;

/** Failed requests of a run by class, most frequent first (ties by class name). */
export const ErrorSummarySchema = Closed({
  requests: count,
  failed: count,
  by_class: Type.Array(
    Closed({
      kind: Type.String(),
      /** failed requests of this class, all replays */
      requests: count,
      /** queries with at least one request of this class */
      queries: count,
      /** the first one in (replay, query id) order */
      first: Closed({ query_id: Type.String(), ...ReportedErrorSchema.properties }),
    }),
  ),
});
export type ErrorSummary = Static<typeof ErrorSummarySchema>;

/**
 * What the system wrote on stderr while answering (Observation `warnings`), deduplicated over the
 * run: each distinct line with how many requests and queries wrote it, most frequent first (ties by
 * text), at most SYSTEM_DEFAULTS.report_warning_lines lines listed and the rest counted.
 */
export const WarningSummarySchema = Closed({
  /** requests that were answered (ok), all replays: the denominator of requests_warned */
  answered: count,
  /** answered requests with at least one warning line */
  warned: count,
  lines: Type.Array(
    Closed({
      text: Type.String(),
      requests: count,
      queries: count,
      /** the first request that wrote it, in (replay, query id) order */
      first: Closed({ query_id: Type.String(), replay: Type.Integer({ minimum: 1 }) }),
    }),
  ),
  /** distinct lines not listed (the report lists the most frequent ones) */
  more_lines: count,
});
export type WarningSummary = Static<typeof WarningSummarySchema>;
