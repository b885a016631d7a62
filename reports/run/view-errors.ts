/**
 * The run's errors as every renderer shows them: the headline count, the classes and each query that
 * erred with its first error and whether its replays agree (part of the run report's view model).
 */
import { pct } from '../../gates/index.js';
import type { QueryOutcome, Report } from '../../src/documents/index.js';

/** One error on one line: its message, then what the system wrote on stderr (lines joined by " | "). */
export function errorText(e: { message: string; stderr_tail?: string | undefined }): string {
  const stderr = e.stderr_tail ? e.stderr_tail.split('\n').join(' | ') : '';
  return [e.message, stderr && `stderr: ${stderr}`].filter(Boolean).join('; ');
}

export interface ErrorView {
  /** "12 of 250 requests failed (4.8%) in 5 queries", "no request failed", or why nothing is known */
  headline: string;
  /** failed requests by class, most frequent first */
  classes: { kind: string; requests: number; queries: number; first: string }[];
  /** each query that erred, in report order, with its first error */
  queries: {
    query_id: string;
    kind: string;
    /** "1/3", or "1/1 (2 planned)" when not every replay of the query ran */
    replays: string;
    /** the same in words: "1/3 replays", or "1/1 replays that ran (2 planned)" */
    replays_text: string;
    text: string;
    deterministic: boolean;
    /** "same class every replay", "varies across replays", or "" where the replays that ran show neither */
    stability: string;
    /** yes / no / "not shown" */
    stable: string;
  }[];
}

/** A query's stability as its evidence shows it: only replays that ran are compared. */
export function stabilityOf(q: QueryOutcome): { stable: string; stability: string } {
  if (q.determinism_shown === false) return { stable: 'not shown', stability: '' };
  return q.deterministic
    ? { stable: 'yes', stability: 'same class every replay' }
    : { stable: 'no', stability: 'varies across replays' };
}

/**
 * The run's errors (report.errors and each query's first_error): what a reader needs to see that
 * "database is locked" was the system's own word, without opening the run store.
 */
export function errorView(report: Report): ErrorView {
  const s = report.errors;
  if (!s)
    return { headline: 'not recorded (report written before error summaries)', classes: [], queries: [] };
  const erred = report.queries.filter((q) => q.first_error);
  const notRun = report.evidence?.requests.not_run ?? 0;
  const never =
    notRun > 0 ? `; ${notRun} planned ${notRun === 1 ? 'request was' : 'requests were'} never made` : '';
  const made = notRun > 0 ? 'requests made' : 'requests';
  const headline =
    s.failed === 0
      ? `no request failed (${s.requests} ${made})${never}`
      : `${s.failed} of ${s.requests} ${made} failed (${pct(s.failed / s.requests)}) in ${erred.length} ${erred.length === 1 ? 'query' : 'queries'}${never}`;
  const planned = report.settings.replays;
  return {
    headline,
    classes: s.by_class.map((c) => ({
      kind: c.kind,
      requests: c.requests,
      queries: c.queries,
      first: `${c.first.query_id} replay ${c.first.replay}: ${errorText(c.first)}`,
    })),
    queries: erred.map((q) => {
      const e = q.first_error!;
      const ran = e.observed_replays ?? planned;
      return {
        query_id: q.query_id,
        kind: e.kinds.join(', '),
        replays:
          ran < planned
            ? `${e.errored_replays}/${ran} (${planned} planned)`
            : `${e.errored_replays}/${planned}`,
        replays_text:
          ran < planned
            ? `${e.errored_replays}/${ran} replays that ran (${planned} planned)`
            : `${e.errored_replays}/${planned} replays`,
        text: `replay ${e.replay}: ${errorText(e)}`,
        deterministic: q.deterministic,
        ...stabilityOf(q),
      };
    }),
  };
}
