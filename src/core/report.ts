/**
 * The run report: what the harness produces, the gate evaluator reads and every renderer draws.
 * Deterministic sections first; `environment` and `timing` hold everything that may differ between
 * two runs of the same inputs (ids, clocks, latencies), so the rest is byte-identical.
 */
import type { MeasureValue, Profile, SelectionMode } from './types.js';

export const REPORT_SCHEMA_VERSION = 'rgate-report/1';

export interface ArtifactRefs {
  fixture: string;
  artifact_id: string;
  version: string;
  corpus_id: string;
  corpus_sha256: string;
  query_set_id: string;
  query_set_sha256: string;
  config_id: string;
  config_sha256: string;
}

export type Verdict = 'PASS' | 'WATCH' | 'FAIL';
export type RuleStatus = 'pass' | 'watch' | 'fail';

export interface RuleResult {
  metric: string;
  /** min: observed must be >= threshold; max: observed must be <= threshold */
  op: 'min' | 'max';
  threshold: number;
  /** the compared number: a rate, a mean, a quantile, or a ratio/delta against the baseline */
  observed: number | null;
  numerator?: number;
  denominator?: number;
  n?: number;
  watch_band?: [number, number];
  baseline?: { value: number | null; source: string; comparison: 'uplift' | 'not_below' | 'delta' };
  /** timing rules: the order statistic compared and, with per 'profile', that every profile was checked */
  quantile?: 'p50' | 'p95' | 'p99';
  per?: 'profile';
  status: RuleStatus;
  reason: string;
}

export interface ChecklistItem {
  id: string;
  text: string;
  ok: boolean;
  evidence: string;
}

export interface GateResult {
  gate_id: string;
  gate_version: string;
  verdict: Verdict;
  rules: RuleResult[];
  reasons: string[];
  checklist: ChecklistItem[];
}

export type Top1Judgment = 'useful' | 'not_useful' | 'unjudged' | 'error' | 'no_answer';

/** One query, as the report shows it (replay 1 for the answer, all replays for stability). */
export interface QueryOutcome {
  query_id: string;
  text: string;
  profile?: Profile;
  kind: 'benchmark' | 'probe';
  tags?: string[];
  expected: {
    selection_mode?: SelectionMode;
    no_match?: boolean;
    useful_ids?: string[];
    useful_paths?: string[];
  };
  actual: {
    ok: boolean;
    error?: string;
    selection_mode?: SelectionMode;
    selected_id?: string;
    source_path?: string;
    top_ids: string[];
    fallback_stage?: string;
  };
  top1: Top1Judgment;
  /** probe queries: did the answer meet the expectation */
  expectation_met?: boolean;
  deterministic: boolean;
  leaked_tags?: string[];
  /** per-query ranking measures, e.g. {"ndcg_cut.5": 0.63} */
  measures?: Record<string, number>;
}

export interface ReplayDivergence {
  query_id: string;
  /** JSON path of the first field that differs, e.g. "/ranked/3/id" */
  field: string;
  /** replay numbers grouped by the fingerprint they produced */
  groups: { fingerprint: string; replays: number[] }[];
}

export interface ReplayProof {
  replays: number;
  seed: number;
  /** the query order seed of each replay */
  order_seeds: number[];
  /** sha256 over the sorted (query_id, fingerprint) pairs of each replay */
  rollups: string[];
  identical: boolean;
  per_query: { query_id: string; fingerprints: string[] }[];
  divergent: ReplayDivergence[];
}

export interface MetricEntry {
  id: string;
  value: MeasureValue;
  /** what the numerator and denominator (or n) count */
  help: string;
}

export interface Breakdown {
  /** e.g. "selection_mode", "profile", "tag" */
  by: string;
  rows: { key: string; metrics: Record<string, MeasureValue> }[];
}

export interface Report {
  schema_version: typeof REPORT_SCHEMA_VERSION;
  suite: string;
  system: { name: string; kind: string; contract: string };
  artifacts: ArtifactRefs;
  settings: {
    replays: number;
    concurrency: number;
    seed: number;
    relevance_level: number;
    restart_between_replays: boolean;
  };
  gate: GateResult;
  metrics: MetricEntry[];
  breakdowns: Breakdown[];
  failing_queries: QueryOutcome[];
  queries: QueryOutcome[];
  replay_proof: ReplayProof;
  /** baseline comparisons and reset notes, when the gate used a baseline */
  baseline?: { run_id?: string; source: string; artifacts?: ArtifactRefs; reset_note?: string };
  environment: {
    run_id: string;
    started_at: string;
    rgate_version: string;
    node: string;
    platform: string;
  };
  timing: {
    wall_ms: number;
    latency_ms: Record<string, MeasureValue>;
    /** gate rules that read timing-dependent metrics (latency) are re-stated here */
    timing_rules?: RuleResult[];
  };
}
