import {
  verdictAsStored,
  type MetricEntry,
  type Observation,
  type RunMeta,
  type RunOwner,
  type RunRow,
} from '../documents/index.js';
import { liveStatus } from './run-owner.js';
import { compareCodeUnits } from '../core/canonical-json.js';
import { importConflict, importDigest } from './run-import.js';
import { measureColumns } from './run-record.js';
import {
  VERDICT_RANK,
  type CompareSessionRow,
  type ImportOutcome,
  type RunImport,
  type RunFacets,
  type RunListFilter,
  type RunResult,
  type RunsSummary,
  type RunSort,
  type RunStore,
} from './types.js';

interface MemRun {
  row: RunRow;
  observations: Map<string, Observation>;
  metrics: MetricEntry[];
  report: unknown;
  /** set when the run was imported whole (importRun) */
  importDigest?: string;
}

/** The same contract as the SQLite store, held in memory: for tests and for `--no-store` runs. */
export class MemoryRunStore implements RunStore {
  readonly location = ':memory:';
  private readonly runs = new Map<string, MemRun>();
  private readonly baselines = new Map<string, { run_id: string; note: string | null }>();
  private readonly sessions = new Map<string, { row: CompareSessionRow; document: unknown }>();

  beginRun(meta: RunMeta): void {
    if (this.runs.has(meta.run_id)) throw new Error(`run ${meta.run_id} already exists`);
    if (meta.content_key !== undefined && this.findRunByContentKey(meta.content_key)) {
      throw new Error(`a run with content key ${meta.content_key} already exists`);
    }
    this.runs.set(meta.run_id, {
      row: {
        ...clone(meta),
        status: 'running',
        finished_at: null,
        gate_id: null,
        verdict: null,
        observation_count: 0,
      },
      observations: new Map(),
      metrics: [],
      report: undefined,
    });
  }

  findRunByContentKey(key: string): RunRow | undefined {
    for (const run of this.runs.values()) if (run.row.content_key === key) return live(run.row);
    return undefined;
  }

  resumeRun(runId: string, owner?: RunOwner): void {
    const run = this.mustGet(runId);
    run.row.status = 'running';
    run.row.finished_at = null;
    if (owner) run.row.owner = clone(owner);
    else delete run.row.owner;
  }

  addObservation(runId: string, obs: Observation): void {
    const run = this.mustGet(runId);
    run.observations.set(`${obs.replay}\u0000${obs.query_id}`, clone(obs));
    run.row.observation_count = run.observations.size;
  }

  finishRun(runId: string, result: RunResult): void {
    const run = this.mustGet(runId);
    run.row.status = result.status;
    run.row.finished_at = result.finished_at;
    run.row.gate_id = result.gate_id ?? null;
    run.row.verdict =
      result.gate_id && result.verdict
        ? verdictAsStored(result.gate_id, result.verdict)
        : (result.verdict ?? null);
    run.metrics = clone(result.metrics).sort((a, b) => compareCodeUnits(a.id, b.id));
    run.report = result.report === undefined ? undefined : clone(result.report);
  }

  importRun(run: RunImport): ImportOutcome {
    const digest = importDigest(run);
    const stored = this.runs.get(run.meta.run_id);
    if (stored) {
      if (stored.importDigest === digest) return 'exists';
      throw importConflict(run.meta.run_id, this.location);
    }
    // everything that can refuse is checked before the first write, so a refusal leaves nothing
    this.beginRun(run.meta);
    const made = this.mustGet(run.meta.run_id);
    made.importDigest = digest;
    for (const o of run.observations) this.addObservation(run.meta.run_id, o);
    this.finishRun(run.meta.run_id, run.result);
    return 'stored';
  }

  getRun(runId: string): RunRow | undefined {
    const r = this.runs.get(runId);
    return r && live(r.row);
  }

  listRuns(filter: RunListFilter = {}): RunRow[] {
    const range = filter.metricRange;
    let rows = this.nightly(filter.suite, filter.idPrefix).filter((r) => {
      if (filter.branch !== undefined && r.git?.branch !== filter.branch) return false;
      if (filter.status !== undefined && r.status !== filter.status) return false;
      if (filter.verdict !== undefined && r.verdict !== filter.verdict) return false;
      if (range === undefined) return true;
      const v = this.measured(r.run_id, range.metric);
      return (
        v !== null &&
        (range.min === undefined || v >= range.min) &&
        (range.max === undefined || v <= range.max)
      );
    });
    if (filter.from !== undefined) {
      const at = rows.findIndex((r) => r.run_id === filter.from);
      rows = at < 0 ? [] : rows.slice(at);
    }
    if (filter.sort !== undefined) rows = this.sorted(rows, filter.sort);
    const start = filter.offset ?? 0;
    const end = filter.limit !== undefined && filter.limit >= 0 ? start + filter.limit : undefined;
    return rows.slice(start, end).map(live);
  }

  /** a run's value of one measure (null: not measured), as the SQL stores' `measures.value` holds it */
  private measured(runId: string, metric: string): number | null {
    const m = this.runs.get(runId)?.metrics.find((x) => x.id === metric);
    const value = m === undefined ? null : measureColumns(m).value;
    // SQLite stores NaN as NULL
    return value === null || Number.isNaN(value) ? null : value;
  }

  /** listRuns' `sort` as the SQL stores order it (runListOrder): rows come in the listing's order */
  private sorted(rows: RunRow[], sort: RunSort): RunRow[] {
    const sign = sort.order === 'asc' ? 1 : -1;
    if (sort.by === 'started_at') return sign === 1 ? [...rows].reverse() : rows;
    const key = (r: RunRow): string | number | null => {
      switch (sort.by) {
        case 'metric':
          return this.measured(r.run_id, sort.metric);
        case 'verdict':
          return r.verdict === null ? null : VERDICT_RANK[r.verdict];
        case 'suite':
          return r.suite;
        case 'branch':
          return r.git?.branch ?? null;
        case 'commit':
          return r.git?.commit ?? null;
        default:
          return r.status;
      }
    };
    const keyed = rows.map((row, at) => ({ row, at, key: key(row) }));
    keyed.sort((a, b) => {
      if (a.key === null || b.key === null)
        return (a.key === null ? 1 : 0) - (b.key === null ? 1 : 0) || a.at - b.at;
      const c =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : compareCodeUnits(String(a.key), String(b.key));
      return sign * c || a.at - b.at;
    });
    return keyed.map((k) => k.row);
  }

  summarizeRuns(filter: Pick<RunListFilter, 'suite' | 'idPrefix'> = {}): RunsSummary {
    const rows = this.nightly(filter.suite, filter.idPrefix);
    const newest = rows[0];
    return {
      run_count: rows.length,
      newest: newest
        ? {
            run_id: newest.run_id,
            suite: newest.suite,
            started_at: newest.started_at,
            verdict: newest.verdict,
          }
        : null,
    };
  }

  runFacets(): RunFacets {
    const rows = this.nightly();
    const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort(compareCodeUnits);
    return {
      suites: sorted(rows.map((r) => r.suite)),
      branches: sorted(rows.flatMap((r) => r.git?.branch ?? [])),
    };
  }

  /** the nightly history (no comparison variants), of one suite or all, newest first */
  private nightly(suite?: string, idPrefix?: string): RunRow[] {
    return [...this.runs.values()]
      .map((r) => r.row)
      .filter(
        (r) =>
          r.compare_session === undefined &&
          (suite === undefined || r.suite === suite) &&
          (idPrefix === undefined || r.run_id.startsWith(idPrefix)),
      )
      .sort((a, b) => compareCodeUnits(b.started_at, a.started_at) || compareCodeUnits(b.run_id, a.run_id));
  }

  getObservations(runId: string): Observation[] {
    const run = this.runs.get(runId);
    if (!run) return [];
    return [...run.observations.values()]
      .sort((a, b) => a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id))
      .map(clone);
  }

  getMetrics(runId: string): MetricEntry[] {
    return clone(this.runs.get(runId)?.metrics ?? []);
  }

  getMetricsOf(runIds: readonly string[]): MetricEntry[][] {
    return runIds.map((id) => this.getMetrics(id));
  }

  getReport(runId: string): unknown {
    const r = this.runs.get(runId)?.report;
    return r === undefined ? undefined : clone(r);
  }

  setBaseline(suite: string, runId: string, note?: string): void {
    this.mustGet(runId);
    this.baselines.set(suite, { run_id: runId, note: note ?? null });
  }

  getBaseline(suite: string): { run_id: string; note: string | null } | undefined {
    const b = this.baselines.get(suite);
    return b && { ...b };
  }

  saveCompareSession(row: CompareSessionRow, document: unknown): unknown {
    const stored = this.sessions.get(row.session_id);
    if (stored) return clone(stored.document);
    this.sessions.set(row.session_id, { row: clone(row), document: clone(document) });
    return undefined;
  }

  listCompareSessions(filter: { suite?: string; limit?: number } = {}): CompareSessionRow[] {
    const rows = [...this.sessions.values()]
      .map((s) => s.row)
      .filter((r) => filter.suite === undefined || r.suite === filter.suite)
      .sort(
        (a, b) =>
          compareCodeUnits(b.created_at, a.created_at) || compareCodeUnits(b.session_id, a.session_id),
      );
    return clone(filter.limit !== undefined && filter.limit >= 0 ? rows.slice(0, filter.limit) : rows);
  }

  getCompareSession(sessionId: string): unknown {
    const s = this.sessions.get(sessionId);
    return s && clone(s.document);
  }

  close(): void {}

  private mustGet(runId: string): MemRun {
    const r = this.runs.get(runId);
    if (!r) throw new Error(`no run ${runId} in the store`);
    return r;
  }
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function live(row: RunRow): RunRow {
  const r = clone(row);
  return { ...r, status: liveStatus(r.status, r.owner) };
}
