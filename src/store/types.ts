import type {
  CompareSessionRow,
  MetricEntry,
  Observation,
  RunMeta,
  RunOwner,
  RunRow,
  RunStatus,
  Verdict,
} from '../documents/index.js';

/** A stored tuning comparison (`rgate compare`), listed without its document (`rgate compare --list --json`). */
export type { CompareSessionRow } from '../documents/index.js';

export interface RunResult {
  status: Exclude<RunStatus, 'running' | 'abandoned'>;
  finished_at: string;
  gate_id?: string;
  verdict?: Verdict;
  metrics: MetricEntry[];
  /** the full JSON report, kept so a run can be re-rendered without its files */
  report?: unknown;
}

/**
 * A store's runs in brief, what a listing of projects shows: how many runs it holds and its newest
 * (the first of listRuns: started_at desc, run_id desc), read without reading every run.
 */
export interface RunsSummary {
  run_count: number;
  newest: { run_id: string; suite: string; started_at: string; verdict: Verdict | null } | null;
}

/**
 * Which runs of the nightly history listRuns reads, newest first (started_at desc, run_id desc).
 * A window or a page is read without the runs outside it: a history of thousands of runs costs a
 * trend chart or a run page no more than one of twenty.
 */
export interface RunListFilter {
  suite?: string;
  /** only runs recorded on this git branch (RunMeta.git.branch) */
  branch?: string;
  /** a finished run's status (whether a running run is abandoned depends on its owner, read live) */
  status?: RunResult['status'];
  /**
   * start at this run, inclusive: it and the runs before it in the order (a run's trend window, the
   * page after a cursor). When the other filters leave it out, or no run has that id, nothing is
   * listed: a caller knows its run is in the listing by finding it first.
   */
  from?: string;
  /**
   * only runs whose id starts with this, as typed (`%` and `_` are themselves, and case counts): a
   * run id prefix (`rgate diff 20261123T1121 ...`) is resolved without listing every run
   */
  idPrefix?: string;
  /** only runs whose gate gave this verdict (a run without a verdict matches none) */
  verdict?: Verdict;
  /** only runs that measured `metric` within [min, max] (each bound optional, inclusive) */
  metricRange?: { metric: string; min?: number; max?: number };
  /**
   * another order than the listing's (started_at desc, run_id desc), which then breaks its ties: a
   * run without the key (no branch, no verdict, not that measure) comes last in either direction.
   * `from` counts in the listing's own order: a sorted listing pages by `offset`.
   */
  sort?: RunSort;
  /** skip this many runs of the order (a sorted page after the first) */
  offset?: number;
  limit?: number;
}

/** The columns a runs listing sorts by; `verdict` by severity: NONE < PASS < WATCH < FAIL. */
export type RunSort =
  | { by: 'started_at' | 'suite' | 'branch' | 'commit' | 'status' | 'verdict'; order: 'asc' | 'desc' }
  | { by: 'metric'; metric: string; order: 'asc' | 'desc' };

/** The severity order of verdicts a sort by verdict uses (both SQL stores and the memory store). */
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { NONE: 0, PASS: 1, WATCH: 2, FAIL: 3 };

/** The suites and git branches of a store's nightly history, each sorted by code units. */
export interface RunFacets {
  suites: string[];
  branches: string[];
}

/** A finished run sent whole (an upload): stored in one transaction, or not at all. */
export interface RunImport {
  meta: RunMeta;
  observations: Observation[];
  result: RunResult;
}

/** `stored`: written now; `exists`: this very run (same content) was stored before, nothing written. */
export type ImportOutcome = 'stored' | 'exists';

/**
 * The run history. Observations are written one by one as they arrive, so a run that is interrupted
 * keeps everything it observed. One contract test suite runs against every implementation.
 */
export interface RunStore {
  readonly location: string;
  beginRun(meta: RunMeta): void;
  /** take a stored, unfinished run up again (`rgate run --resume`): running, owned by `owner` */
  resumeRun(runId: string, owner?: RunOwner): void;
  addObservation(runId: string, obs: Observation): void;
  finishRun(runId: string, result: RunResult): void;
  /**
   * Store a finished run whole, atomically, idempotent by run id: the same run again (a retry, a
   * duplicate upload) is `exists` and writes nothing; another run under a stored id is refused.
   */
  importRun(run: RunImport): ImportOutcome;
  getRun(runId: string): RunRow | undefined;
  /** the run stored with this content key (RunMeta.content_key), if any */
  findRunByContentKey(key: string): RunRow | undefined;
  /**
   * newest first (started_at desc, run_id desc): the nightly history, so a comparison's variant runs
   * (RunMeta.compare_session) are left out here and in summarizeRuns; getRun finds them
   */
  listRuns(filter?: RunListFilter): RunRow[];
  /**
   * the run count and the newest run (of one suite, or of all), without reading the runs (listRuns
   * reads and checks each)
   */
  summarizeRuns(filter?: Pick<RunListFilter, 'suite' | 'idPrefix'>): RunsSummary;
  /** the suites and branches listRuns would show, without reading the runs */
  runFacets(): RunFacets;
  /** ordered by replay, then query_id */
  getObservations(runId: string): Observation[];
  getMetrics(runId: string): MetricEntry[];
  /**
   * The measures of many runs in one read, each run's as getMetrics answers it, in the order of
   * `runIds` ([] for an id with none): a trend of 1,000 runs is one query, not 1,000.
   */
  getMetricsOf(runIds: readonly string[]): MetricEntry[][];
  getReport(runId: string): unknown;
  setBaseline(suite: string, runId: string, note?: string): void;
  getBaseline(suite: string): { run_id: string; note: string | null } | undefined;
  /**
   * Keep a comparison session (its full JSON document) under its id, once: when the id is stored
   * already nothing changes and the stored document is returned (undefined when this one was kept).
   * One statement, so two writers of one id (two server processes on a database) cannot both win.
   */
  saveCompareSession(row: CompareSessionRow, document: unknown): unknown;
  /** newest first (created_at desc, session_id desc) */
  listCompareSessions(filter?: { suite?: string; limit?: number }): CompareSessionRow[];
  getCompareSession(sessionId: string): unknown;
  close(): void;
}
