/**
 * What the history, diff, comparison and closeout renderers draw. The harness builds these documents
 * (harness/history*.ts, harness/compare*.ts, harness/closeout.ts); reports may not import harness,
 * so each renderer states here the part of a document it reads, and the CLI call sites check at
 * compile time that the harness's documents fit.
 */
import type {
  ArtifactRefs,
  ChecklistItem,
  MetricEntry,
  QueryOutcome,
  ReplayDivergence,
  Report,
  RuleResult,
  Top1Judgment,
  Verdict,
} from '../../src/core/report.js';

export interface TrendPointView {
  run_id: string;
  started_at: string;
  value: number | null;
  numerator?: number;
  denominator?: number;
  interval: [number, number] | null;
  verdict: Verdict | null;
  snapshot_changed: boolean;
}

export interface HistoryViewModel {
  suite: string;
  runs: {
    run_id: string;
    started_at: string;
    status: string;
    gate_id: string | null;
    verdict: Verdict | null;
    version: string | null;
  }[];
  skipped: { run_id: string; status: string }[];
  trends: {
    metric: string;
    kind: 'rate' | 'mean' | 'quantiles';
    gate_metric: boolean;
    better: 'higher' | 'lower';
    points: TrendPointView[];
    sparkline: string;
    latest: number | null;
    delta: number | null;
    alarm: string | null;
  }[];
  alarms: string[];
}

export interface MeasureDeltaView {
  measure: string;
  a: number | null;
  b: number | null;
  delta: number | null;
}

export interface QueryChangeView {
  query_id: string;
  text: string;
  class: 'regression' | 'improvement' | 'mixed' | 'neutral';
  changes: string[];
  top1: [Top1Judgment, Top1Judgment];
  selected_id: [string | null, string | null];
  selection_mode: [string | null, string | null];
}

export interface RunDiffModel {
  a: { run_id: string; artifacts: ArtifactRefs; verdict: string };
  b: { run_id: string; artifacts: ArtifactRefs; verdict: string };
  same_snapshot: boolean;
  metrics: MeasureDeltaView[];
  regressions: QueryChangeView[];
  improvements: QueryChangeView[];
  changed_top1: QueryChangeView[];
  changed_selection_mode: QueryChangeView[];
  other_changes: QueryChangeView[];
  only_in_a: string[];
  only_in_b: string[];
  unchanged: number;
}

export interface BaselineInfoModel {
  suite: string;
  run: {
    run_id: string;
    started_at: string;
    status: string;
    verdict: Verdict | null;
    gate_id: string | null;
    artifacts: unknown;
  };
  note: string | null;
  metrics: MetricEntry[];
}

export interface PairedTestView {
  metric: string;
  a: string;
  b: string;
  n: number;
  mean_a: number | null;
  mean_b: number | null;
  mean_delta: number | null;
  ci95: [number, number] | null;
  p_value: number | null;
  p_holm: number | null;
  significant: boolean;
  wins: number;
  ties: number;
  losses: number;
}

export interface CompareSessionModel {
  schema: string;
  suite: string;
  kind: 'variants' | 'sweep';
  sweep?: { key: string; values: number[] };
  artifacts: ArtifactRefs;
  settings: { seed: number; alpha: number; resamples: number; permutations: number; replays: number };
  reference: string;
  gate_metrics: string[];
  metrics: { id: string; better: 'higher' | 'lower' }[];
  variants: {
    id: string;
    label: string;
    sweep_value?: number;
    run_id: string;
    config_id: string;
    verdict: Verdict;
    aggregates: {
      metric: string;
      kind: string;
      value: number | null;
      numerator?: number;
      denominator?: number;
    }[];
  }[];
  tests: PairedTestView[];
  winners: { metric: string; best: string | null; winner: string | null; reason: string }[];
  flips: {
    a: string;
    b: string;
    queries: {
      query_id: string;
      text: string;
      a: { selected: string | null; top1: Top1Judgment };
      b: { selected: string | null; top1: Top1Judgment };
      direction: 'better' | 'worse' | 'changed';
    }[];
  }[];
  environment: { session_id: string; created_at: string };
}

export interface CloseoutModel {
  schema: string;
  suite: string;
  ready: boolean;
  gate: {
    gate_id: string;
    version: string;
    description: string;
    source?: string;
    verdict: Verdict;
    rules: RuleResult[];
    reasons: string[];
    checklist: ChecklistItem[];
  };
  freeze: {
    verified: true;
    artifact_id: string;
    version: string;
    frozen_on: string;
    seal: string;
    files: { part: string; file: string; id: string; sha256: string }[];
    rules: string[];
    history: { version: string; frozen_on: string; reset_note?: string }[];
  };
  run: {
    run_id: string;
    started_at: string;
    system: Report['system'];
    settings: Report['settings'];
    artifacts: ArtifactRefs;
  };
  baseline: {
    run_id: string;
    started_at: string | null;
    note: string | null;
    version: string;
    artifacts: ArtifactRefs;
    version_changed: boolean;
    reset_note: string | null;
  } | null;
  determinism: {
    replays: number;
    seed: number;
    identical: boolean;
    rollups: string[];
    divergent: ReplayDivergence[];
    replay_determinism: MetricEntry | null;
    fallback_determinism: MetricEntry | null;
  };
  budget: { budget_compliance: MetricEntry | null; rule: RuleResult | null };
  failing_queries: QueryOutcome[];
  residuals: {
    id: string;
    risk: string;
    owner: string;
    due: string;
    mitigation?: string;
    severity?: string;
  }[];
  sign_off: { role: string }[];
}
