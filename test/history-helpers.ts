/**
 * Builders for the history / compare / closeout tests: reports shaped exactly like the runner's
 * (src/documents/report.ts), with the per-query outcomes a test plants.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REPORT_SCHEMA_VERSION,
  type ArtifactRefs,
  type MetricEntry,
  type QueryOutcome,
  type Report,
  type RuleResult,
  type Verdict,
} from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import { upgradeReport } from '../harness/failure-reasons.js';

export function artifacts(version = 'v1', over: Partial<ArtifactRefs> = {}): ArtifactRefs {
  const h = (c: string) => `sha256:${c.repeat(64)}`;
  return {
    fixture: 'ctx',
    artifact_id: 'ctx-fixture',
    version,
    corpus_id: `ctx/corpus@${version}#aaaaaaaaaaaaaaaa`,
    corpus_sha256: h('a'),
    query_set_id: `ctx/queries@${version}#bbbbbbbbbbbbbbbb`,
    query_set_sha256: h('b'),
    config_id: `ctx/config@${version}#cccccccccccccccc`,
    config_sha256: h('c'),
    ...over,
  };
}

export function rate(
  id: string,
  numerator: number,
  denominator: number,
  wilson95?: [number, number],
): MetricEntry {
  const r = denominator ? numerator / denominator : null;
  return {
    id,
    value: {
      kind: 'rate',
      numerator,
      denominator,
      rate: r,
      wilson95: r === null ? null : (wilson95 ?? [Math.max(0, r - 0.1), Math.min(1, r + 0.1)]),
    },
    help: `${id} (test)`,
  };
}

export function mean(id: string, m: number, n: number, ci95?: [number, number]): MetricEntry {
  return {
    id,
    value: { kind: 'mean', n, mean: m, ci95: ci95 ?? [m - 0.05, m + 0.05] },
    help: `${id} (test)`,
  };
}

export function outcome(
  id: string,
  o: {
    top1?: QueryOutcome['top1'];
    selected?: string;
    mode?: QueryOutcome['actual']['selection_mode'];
    measures?: Record<string, number>;
    kind?: 'benchmark' | 'probe';
    deterministic?: boolean;
    expectation_met?: boolean;
  } = {},
): QueryOutcome {
  const selected = o.selected ?? `doc-${id}`;
  return {
    query_id: id,
    text: `query ${id}`,
    kind: o.kind ?? 'benchmark',
    expected: {},
    actual: {
      ok: true,
      selection_mode: o.mode ?? 'semantic',
      selected_id: selected,
      source_path: `docs/${selected}.md`,
      top_ids: [selected],
    },
    top1: o.top1 ?? 'useful',
    deterministic: o.deterministic ?? true,
    ...(o.expectation_met !== undefined ? { expectation_met: o.expectation_met } : {}),
    ...(o.measures ? { measures: o.measures } : {}),
  };
}

export function report(o: {
  runId: string;
  suite?: string;
  artifacts?: ArtifactRefs;
  queries: QueryOutcome[];
  metrics?: MetricEntry[];
  verdict?: Verdict;
  rules?: RuleResult[];
  gateId?: string;
  replays?: number;
}): Report {
  const rules = o.rules ?? [];
  return upgradeReport({
    schema_version: REPORT_SCHEMA_VERSION,
    suite: o.suite ?? 'ctx',
    system: { name: 'builtin:semantic', kind: 'builtin', contract: 'rgate' },
    artifacts: o.artifacts ?? artifacts(),
    settings: {
      replays: o.replays ?? 5,
      concurrency: 1,
      seed: 7,
      relevance_level: 1,
      restart_between_replays: false,
    },
    gate: {
      gate_id: o.gateId ?? 'test-gate',
      gate_version: '1',
      verdict: o.verdict ?? 'PASS',
      rules,
      reasons: [],
      checklist: [],
    },
    metrics: o.metrics ?? [],
    breakdowns: [],
    failing_queries: o.queries.filter((q) => q.top1 !== 'useful'),
    queries: o.queries,
    replay_proof: {
      replays: o.replays ?? 5,
      seed: 7,
      order_seeds: [],
      rollups: ['sha256:r1'],
      identical: true,
      per_query: [],
      divergent: [],
    },
    environment: {
      run_id: o.runId,
      started_at: '2026-11-22T00:00:00Z',
      rgate_version: '0.1.0',
      node: 'v20',
      platform: 'linux-x64',
    },
    timing: { wall_ms: 1, latency_ms: {} },
  });
}

export function rule(
  metric: string,
  op: 'min' | 'max',
  threshold: number,
  status: RuleResult['status'] = 'pass',
): RuleResult {
  return { metric, op, threshold, observed: threshold, status, reason: 'test' };
}

/** Store a finished run with its report, as `rgate run` does. */
export function storeRun(
  store: RunStore,
  r: Report,
  o: { startedAt: string; status?: 'complete' | 'interrupted' | 'failed'; suite?: string },
): void {
  store.beginRun({
    run_id: r.environment.run_id,
    suite: o.suite ?? r.suite,
    started_at: o.startedAt,
    artifacts: r.artifacts,
    settings: r.settings,
  });
  store.finishRun(r.environment.run_id, {
    status: o.status ?? 'complete',
    finished_at: o.startedAt,
    gate_id: r.gate.gate_id,
    verdict: r.gate.verdict,
    metrics: r.metrics,
    report: r,
  });
}

export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
