import { RgateError } from '../core/errors.js';
import { formatAjvErrors } from '../contracts/ajv.js';
import { validateRunRow, validateStoredMetric, validateStoredObservation } from '../contracts/run-row.js';
import type {
  GitRef,
  MetricEntry,
  Observation,
  RunMeta,
  RunRow,
  RunStatus,
  Verdict,
} from '../documents/index.js';
import { withRequest } from './observation-packs.js';
import { unpackJson, unpackStoredReport } from './packed-json.js';
import { liveStatus } from './run-owner.js';
import { shellWord } from '../core/shell-word.js';
import { VERDICT_RANK, type RunListFilter } from './types.js';

/** A `runs` row joined with its verdict and observation count, as the SQL stores select it. */
export interface RunRecord {
  run_id: string;
  suite: string;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  artifacts_json: string;
  settings_json: string;
  plan_json: string | null;
  owner_json: string | null;
  content_key: string | null;
  git_commit: string | null;
  git_branch: string | null;
  git_pr: number | null;
  git_base_branch: string | null;
  git_merge_base: string | null;
  compare_session: string | null;
  gate_id: string | null;
  verdict: Verdict | null;
  observation_count: number;
}

/** How to be rid of a stored run this rgate cannot read, in the store's own tool (sqlite3, psql). */
export type UnreadableHint = (runId: string, location: string) => string;

const SQLITE_HINT: UnreadableHint = (runId, location) =>
  `written by another rgate version or edited by hand: delete that run with sqlite3 ${shellWord(location)} "PRAGMA foreign_keys=ON; DELETE FROM runs WHERE run_id='${runId}'", or use another --store`;

/** The one refusal of a stored run that does not read back: names the run and the store, exit 2. */
function unreadable(runId: string, location: string, hint: UnreadableHint, problem: string): RgateError {
  return new RgateError(
    'input_invalid',
    `run ${runId} in ${location} is not a run this rgate can read: ${problem}`,
    hint(runId, location),
  );
}

/** A compiled validator, as src/contracts makes them (the store does not import ajv itself). */
type Validator<T> = ((value: unknown) => value is T) & { errors?: Parameters<typeof formatAjvErrors>[0] };

/** The first ajv error, and how many more: one line. */
function firstError(validate: Validator<unknown>): string {
  const [first, ...more] = formatAjvErrors(validate.errors);
  return `${first ?? 'is invalid'}${more.length ? ` (and ${more.length} more)` : ''}`;
}

/** Stored JSON (text, or deflated: unpackJson) parsed; text that does not parse is the run's refusal, not a crash. */
function parseStored(
  stored: string | Buffer,
  column: string,
  where: { runId: string; location: string; hint: UnreadableHint },
): unknown {
  try {
    return unpackJson(stored);
  } catch (e) {
    throw unreadable(
      where.runId,
      where.location,
      where.hint,
      `${column} is not JSON (${(e as Error).message})`,
    );
  }
}

/** A stored run as the store lists it, checked against the run row document (never a cast). */
function toRow(r: RunRecord, location: string, hint = SQLITE_HINT): RunRow {
  const where = { runId: r.run_id, location, hint };
  const owner = r.owner_json === null ? undefined : parseStored(r.owner_json, 'owner_json', where);
  const row: unknown = {
    run_id: r.run_id,
    suite: r.suite,
    started_at: r.started_at,
    finished_at: r.finished_at,
    status: r.status,
    artifacts: parseStored(r.artifacts_json, 'artifacts_json', where),
    settings: parseStored(r.settings_json, 'settings_json', where),
    ...(r.plan_json === null ? {} : { plan: parseStored(r.plan_json, 'plan_json', where) }),
    ...(owner === undefined ? {} : { owner }),
    ...(r.content_key === null ? {} : { content_key: r.content_key }),
    ...gitOf(r),
    ...(r.compare_session === null ? {} : { compare_session: r.compare_session }),
    gate_id: r.gate_id,
    verdict: r.verdict,
    observation_count: r.observation_count,
  };
  if (!validateRunRow(row)) throw unreadable(r.run_id, location, hint, firstError(validateRunRow));
  return { ...row, status: liveStatus(row.status, row.owner) };
}

/** Rows of a `json` column (observations, measures), in the store's order. */
type JsonRows = readonly { json: string | Buffer }[];

/** An observation's stored text and its row's request fields (observation-packs.ts rowsWithBodies). */
type StoredObservationRow = {
  json: string | Buffer;
  replay: number;
  latency_ms: number | null;
  inline: boolean;
};

/**
 * What a store reads back as JSON, each part checked against its document (never a cast), and a
 * refusal naming the run in `location` with the store's own hint. Bound once per store.
 */
export function storedReader(location: string, hint = SQLITE_HINT) {
  const at = (runId: string) => ({ runId, location, hint });
  return {
    row: (r: RunRecord): RunRow => toRow(r, location, hint),
    /** rows as rowsWithBodies gives them: a body from a pack gets its row's replay and latency back */
    observations: (rows: readonly StoredObservationRow[], runId: string): Observation[] =>
      checkedRows(rows, validateStoredObservation, 'observation', at(runId), (value, i) => {
        const r = rows[i]!;
        return r.inline ? value : withRequest(value, r.replay, r.latency_ms);
      }),
    metrics: (rows: JsonRows, runId: string): MetricEntry[] =>
      checkedRows(rows, validateStoredMetric, 'measure', at(runId)),
    /** rows of many runs (ordered by run, then as getMetrics orders them), checked per run, in `runIds`' order */
    metricsOf: (rows: readonly { run_id: string; json: string | Buffer }[], runIds: readonly string[]) => {
      const byRun = new Map<string, { json: string | Buffer }[]>();
      for (const r of rows) {
        let list = byRun.get(r.run_id);
        if (!list) byRun.set(r.run_id, (list = []));
        list.push(r);
      }
      const checked = new Map<string, MetricEntry[]>();
      for (const [runId, list] of byRun)
        checked.set(runId, checkedRows(list, validateStoredMetric, 'measure', at(runId)));
      return runIds.map((id) => checked.get(id) ?? []);
    },
    /**
     * The measures of many runs from one row per run (the run's `json` texts joined into an array;
     * `ok`: the store found each text to be JSON as JSON.parse reads it), in `runIds`' order;
     * undefined when any run's list is not exactly its rows, each a valid measure: the caller then reads them row by row (metricsOf), which
     * names the damaged row as it always has. 1,000 runs' 12,000 measures are 1,000 rows, not 12,000.
     */
    metricLists: (
      rows: readonly { run_id: string; n: number | string; ok: number | boolean; list: string }[],
      runIds: readonly string[],
    ): MetricEntry[][] | undefined => {
      const byRun = new Map<string, MetricEntry[]>();
      for (const r of rows) {
        const n = Number(r.n);
        if (!r.ok) return undefined;
        let list: unknown;
        try {
          list = JSON.parse(r.list);
        } catch {
          return undefined;
        }
        if (!Array.isArray(list) || list.length !== n || !list.every((m) => validateStoredMetric(m)))
          return undefined;
        byRun.set(r.run_id, list as MetricEntry[]);
      }
      return runIds.map((id) => byRun.get(id) ?? []);
    },
    /** parsed, not checked: the store keeps a report as a document its readers check */
    report: (stored: string | Buffer | null | undefined, runId: string): unknown =>
      stored ? unpackStoredReport(parseStored(stored, 'report_json', at(runId))) : undefined,
  };
}

function checkedRows<T>(
  rows: JsonRows,
  validate: Validator<T>,
  what: string,
  where: { runId: string; location: string; hint: UnreadableHint },
  complete: (value: unknown, i: number) => unknown = (value) => value,
): T[] {
  return rows.map((r, i) => {
    const value = complete(parseStored(r.json, `${what} ${i + 1}`, where), i);
    if (!validate(value)) {
      throw unreadable(where.runId, where.location, where.hint, `${what} ${i + 1}: ${firstError(validate)}`);
    }
    return value;
  });
}

function gitOf(r: RunRecord): { git?: GitRef } {
  const git: GitRef = {
    ...(r.git_commit === null ? {} : { commit: r.git_commit }),
    ...(r.git_branch === null ? {} : { branch: r.git_branch }),
    // pg reads an INTEGER as a number, SQLite too; Number() keeps either so
    ...(r.git_pr === null || r.git_pr === undefined ? {} : { pr: Number(r.git_pr) }),
    ...(r.git_base_branch === null || r.git_base_branch === undefined
      ? {}
      : { base_branch: r.git_base_branch }),
    ...(r.git_merge_base === null || r.git_merge_base === undefined ? {} : { merge_base: r.git_merge_base }),
  };
  return Object.keys(git).length === 0 ? {} : { git };
}

/** A measure's queryable columns (the full entry is kept as JSON beside them): numerator, denominator, value. */
export function measureColumns(m: MetricEntry): { num: number | null; den: number; value: number | null } {
  const v = m.value;
  return {
    num: v.kind === 'rate' ? v.numerator : null,
    den: v.kind === 'rate' ? v.denominator : v.n,
    value: v.kind === 'rate' ? v.rate : v.kind === 'mean' ? v.mean : v.p95,
  };
}

/**
 * A new run's `runs` columns and their values, in one order, for the SQLite and PostgreSQL stores'
 * INSERT (each adds its own placeholders, `status` and, on import, `import_sha256`).
 */
export function runInsert(meta: RunMeta): { columns: string; values: (string | null)[] } {
  return {
    columns:
      'run_id, suite, started_at, artifacts_json, settings_json, plan_json, owner_json, content_key, git_commit, git_branch, compare_session, git_pr, git_base_branch, git_merge_base',
    values: [
      meta.run_id,
      meta.suite,
      meta.started_at,
      JSON.stringify(meta.artifacts),
      JSON.stringify(meta.settings),
      meta.plan === undefined ? null : JSON.stringify(meta.plan),
      meta.owner === undefined ? null : JSON.stringify(meta.owner),
      meta.content_key ?? null,
      meta.git?.commit ?? null,
      meta.git?.branch ?? null,
      meta.compare_session ?? null,
      meta.git?.pr === undefined ? null : String(meta.git.pr),
      meta.git?.base_branch ?? null,
      meta.git?.merge_base ?? null,
    ],
  };
}

/**
 * The WHERE clause of listRuns over `runs r`, for both SQL stores: `param` takes a value and answers
 * its placeholder (`?` or `$n`), `collate` is how text compares in the listing's order (PostgreSQL's
 * `COLLATE "C"`: byte order, as SQLite's). `from`: the run and those after it in the order
 * (started_at desc, run_id desc), as a row-value comparison against that run, so no newer row is
 * read; no such run compares as NULL and lists nothing.
 */
export function runListWhere(
  filter: RunListFilter,
  param: (v: string | number) => string,
  collate = '',
): string {
  const where = ['r.compare_session IS NULL'];
  if (filter.suite !== undefined) where.push(`r.suite = ${param(filter.suite)}`);
  if (filter.branch !== undefined) where.push(`r.git_branch = ${param(filter.branch)}`);
  if (filter.status !== undefined) where.push(`r.status = ${param(filter.status)}`);
  if (filter.idPrefix !== undefined) {
    // LIKE finds the candidates (an index can serve it); the prefix's own `%`, `_` and `\` are
    // escaped so they match themselves. SQLite's LIKE ignores ASCII case: the substr comparison
    // keeps the match exact in both databases.
    const escaped = filter.idPrefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    where.push(
      `r.run_id LIKE ${param(`${escaped}%`)} ESCAPE '\\'`,
      `substr(r.run_id, 1, ${[...filter.idPrefix].length}) = ${param(filter.idPrefix)}`,
    );
  }
  if (filter.verdict !== undefined) where.push(`v.verdict = ${param(filter.verdict)}`);
  const range = filter.metricRange;
  if (range !== undefined) {
    // placeholders in the order they appear (SQLite's `?` are positional)
    const id = param(range.metric);
    const bounds = [
      ...(range.min !== undefined ? [`mr.value >= ${param(range.min)}`] : []),
      ...(range.max !== undefined ? [`mr.value <= ${param(range.max)}`] : []),
    ];
    where.push(
      `EXISTS (SELECT 1 FROM measures mr WHERE mr.run_id = r.run_id AND mr.metric_id = ${id}` +
        `${bounds.map((b) => ` AND ${b}`).join('')})`,
    );
  }
  if (filter.from !== undefined) {
    where.push(
      `(r.started_at${collate}, r.run_id${collate}) <= ` +
        `(SELECT f.started_at${collate}, f.run_id${collate} FROM runs f WHERE f.run_id = ${param(filter.from)})`,
    );
  }
  return where.join(' AND ');
}

/**
 * The ORDER BY of listRuns over `runs r` (and `verdicts v`), for both SQL stores: the listing's order
 * (started_at desc, run_id desc), or `filter.sort` first with that order breaking its ties and a run
 * without the key last in either direction (`x IS NULL` sorts false first in both databases).
 */
export function runListOrder(filter: RunListFilter, param: (v: string) => string, collate = ''): string {
  const listing = `r.started_at${collate} DESC, r.run_id${collate} DESC`;
  const s = filter.sort;
  if (s === undefined) return listing;
  const dir = s.order === 'asc' ? 'ASC' : 'DESC';
  if (s.by === 'started_at') return `r.started_at${collate} ${dir}, r.run_id${collate} ${dir}`;
  const column = s.by === 'metric' || s.by === 'verdict' ? '' : SORT_COLUMN[s.by];
  // named twice (whether it is missing, then its value): a metric's subquery takes its id twice
  const key = () =>
    s.by === 'metric'
      ? `(SELECT ms.value FROM measures ms WHERE ms.run_id = r.run_id AND ms.metric_id = ${param(s.metric)})`
      : s.by === 'verdict'
        ? `(CASE v.verdict ${Object.entries(VERDICT_RANK)
            .map(([verdict, rank]) => `WHEN '${verdict}' THEN ${rank}`)
            .join(' ')} END)`
        : `r.${column}${collate}`;
  return `${key()} IS NULL, ${key()} ${dir}, ${listing}`;
}

const SORT_COLUMN = { suite: 'suite', branch: 'git_branch', commit: 'git_commit', status: 'status' } as const;

/**
 * A listing that starts at `from` holds that run first, or it is empty: a run the other filters
 * leave out (another suite, a comparison variant) lists nothing rather than its neighbours.
 */
export function startingAt<T extends { run_id: string }>(rows: T[], from: string | undefined): T[] {
  return from === undefined || rows[0]?.run_id === from ? rows : [];
}
