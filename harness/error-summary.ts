/**
 * Errors of the system under test, as the reports show them: per query its first error (class,
 * message, stderr tail), per run the failed requests by class. Pure: the same observations give the
 * same section, whatever order they arrived in.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import type {
  ErrorSummary,
  Observation,
  QueryError,
  QueryOutcome,
  ReportedError,
  WarningSummary,
} from '../src/documents/index.js';
import type { EvidenceIndex } from '../src/metrics/index.js';

/** The last non-empty lines of stderr, at most `max` characters (cut at a line start when it can be). */
export function stderrTail(
  stderr: string | undefined,
  max: number = SYSTEM_DEFAULTS.stderr_report_chars,
): string | undefined {
  const text = (stderr ?? '').replace(/\r\n?/g, '\n').trim();
  if (!text) return undefined;
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const nl = cut.indexOf('\n');
  return nl >= 0 && nl < cut.length - 1 ? cut.slice(nl + 1) : `…${cut.slice(1)}`;
}

function reported(o: Observation): ReportedError {
  const tail = stderrTail(o.error?.stderr);
  return {
    kind: o.error?.kind ?? 'error',
    message: o.error?.message ?? '',
    ...(tail ? { stderr_tail: tail } : {}),
    replay: o.replay,
  };
}

const byReplayThenQuery = (a: Observation, b: Observation) =>
  a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id);

/** A query's first error (lowest replay that errored) with its error count, the replays run and its classes; undefined when none erred. */
export function queryError(observations: readonly Observation[]): QueryError | undefined {
  const failed = observations.filter((o) => !o.ok).sort(byReplayThenQuery);
  const first = failed[0];
  if (!first) return undefined;
  return {
    ...reported(first),
    errored_replays: failed.length,
    observed_replays: observations.length,
    kinds: [...new Set(failed.map((o) => o.error?.kind ?? 'error'))].sort(compareCodeUnits),
  };
}

/** Failed requests by class, most frequent first, each with its first occurrence in (replay, query id) order. */
export function errorSummary(observations: readonly Observation[]): ErrorSummary {
  const failed = observations.filter((o) => !o.ok).sort(byReplayThenQuery);
  const classes = new Map<string, { requests: number; queries: Set<string>; first: Observation }>();
  for (const o of failed) {
    const kind = o.error?.kind ?? 'error';
    const c = classes.get(kind);
    if (c) {
      c.requests++;
      c.queries.add(o.query_id);
    } else classes.set(kind, { requests: 1, queries: new Set([o.query_id]), first: o });
  }
  return {
    requests: observations.length,
    failed: failed.length,
    by_class: [...classes.entries()]
      .sort(([ka, a], [kb, b]) => b.requests - a.requests || compareCodeUnits(ka, kb))
      .map(([kind, c]) => ({
        kind,
        requests: c.requests,
        queries: c.queries.size,
        first: { query_id: c.first.query_id, ...reported(c.first) },
      })),
  };
}

/** Each QueryOutcome with its first error attached (those without errors unchanged). */
export function withFirstErrors(queries: readonly QueryOutcome[], evidence: EvidenceIndex): QueryOutcome[] {
  return queries.map((q) => {
    const e = queryError(evidence.all(q.query_id));
    return e ? { ...q, first_error: e } : q;
  });
}

/**
 * The run's warnings: every distinct stderr line of an answered request, counted by requests and
 * queries, most frequent first (ties by text), the first SYSTEM_DEFAULTS.report_warning_lines listed.
 * Pure: arrival order does not reach it.
 */
export function warningSummary(
  observations: readonly Observation[],
  limit: number = SYSTEM_DEFAULTS.report_warning_lines,
): WarningSummary {
  const answered = observations.filter((o) => o.ok).sort(byReplayThenQuery);
  const lines = new Map<string, { requests: number; queries: Set<string>; first: Observation }>();
  let warned = 0;
  for (const o of answered) {
    if (!o.warnings?.length) continue;
    warned++;
    for (const text of o.warnings) {
      const l = lines.get(text);
      if (l) {
        l.requests++;
        l.queries.add(o.query_id);
      } else lines.set(text, { requests: 1, queries: new Set([o.query_id]), first: o });
    }
  }
  const sorted = [...lines.entries()].sort(
    ([ta, a], [tb, b]) => b.requests - a.requests || compareCodeUnits(ta, tb),
  );
  return {
    answered: answered.length,
    warned,
    lines: sorted.slice(0, limit).map(([text, l]) => ({
      text,
      requests: l.requests,
      queries: l.queries.size,
      first: { query_id: l.first.query_id, replay: l.first.replay },
    })),
    more_lines: Math.max(0, sorted.length - limit),
  };
}
