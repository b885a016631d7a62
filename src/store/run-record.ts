import { RgateError } from '../core/errors.js';
import { formatAjvErrors } from '../contracts/ajv.js';
import { validateRunRow } from '../contracts/run-row.js';
import type { MetricEntry, RunMeta, RunRow, RunStatus, Verdict } from '../documents/index.js';
import { liveStatus } from './run-owner.js';

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
  compare_session: string | null;
  gate_id: string | null;
  verdict: Verdict | null;
  observation_count: number;
}

/** A stored run as the store lists it, checked against the run row document (never a cast). */
export function toRow(r: RunRecord, location: string, hint = SQLITE_HINT): RunRow {
  const owner = r.owner_json === null ? undefined : (JSON.parse(r.owner_json) as unknown);
  const row: unknown = {
    run_id: r.run_id,
    suite: r.suite,
    started_at: r.started_at,
    finished_at: r.finished_at,
    status: r.status,
    artifacts: JSON.parse(r.artifacts_json),
    settings: JSON.parse(r.settings_json),
    ...(r.plan_json === null ? {} : { plan: JSON.parse(r.plan_json) as unknown }),
    ...(owner === undefined ? {} : { owner }),
    ...(r.content_key === null ? {} : { content_key: r.content_key }),
    ...gitOf(r),
    ...(r.compare_session === null ? {} : { compare_session: r.compare_session }),
    gate_id: r.gate_id,
    verdict: r.verdict,
    observation_count: r.observation_count,
  };
  if (!validateRunRow(row)) {
    const [first, ...more] = formatAjvErrors(validateRunRow.errors);
    throw new RgateError(
      'input_invalid',
      `run ${r.run_id} in ${location} is not a run this rgate can read: ${first ?? 'is invalid'}${more.length ? ` (and ${more.length} more)` : ''}`,
      hint,
    );
  }
  return { ...row, status: liveStatus(row.status, row.owner) };
}

function gitOf(r: RunRecord): { git?: { commit?: string; branch?: string } } {
  if (r.git_commit === null && r.git_branch === null) return {};
  return {
    git: {
      ...(r.git_commit === null ? {} : { commit: r.git_commit }),
      ...(r.git_branch === null ? {} : { branch: r.git_branch }),
    },
  };
}

const SQLITE_HINT =
  'it was written by another rgate version or edited by hand; use another --store, or delete the run with sqlite3';

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
      'run_id, suite, started_at, artifacts_json, settings_json, plan_json, owner_json, content_key, git_commit, git_branch, compare_session',
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
    ],
  };
}
