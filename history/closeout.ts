/**
 * The Gate C closeout (seed 000 "Fixture Freeze Binding", issue 8): one document that binds a run
 * to the frozen fixture, names its baseline (and the reset note when the fixture version moved
 * since), states observed vs target for every rule, the determinism proof, budget compliance, the
 * failing queries, residual risks with owners and due dates, and a sign-off block. Refuses to be
 * written when any of that binding cannot be shown.
 */
import { compareCodeUnits } from '../src/core/canonical-json.js';
import { RgateError } from '../src/core/errors.js';
import { hasSelectionStep, perQueryValues, semanticWinModesOf } from '../src/metrics/index.js';
import {
  CLOSEOUT_SCHEMA_VERSION,
  type ArtifactRefs,
  type CloseoutDoc,
  type Freeze,
  type GatePolicy,
  type Report,
  type ResidualRisk,
  type RunRow,
} from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import { evaluateGate } from '../gates/index.js';
import { checkSnapshotChange, frozenConfigId } from '../src/snapshot/index.js';
import { resolveBaseline, type ResolvedBaseline } from '../harness/run-baseline.js';
import { checklistEvidence } from '../harness/checklist-evidence.js';
import { withFailureReasons } from '../harness/failure-reasons.js';
import { newestCompleteRun } from './baseline.js';
import { asReport } from './trends.js';
import { rankingEvidence } from './closeout-ranking.js';

export const SIGN_OFF_ROLES: readonly string[] = [
  'Retrieval owner',
  'Gate C reviewer',
  'Governance approver',
];

export interface CloseoutInput {
  suite: string;
  policy: GatePolicy;
  /** the fixture as loaded and verified against its freeze just now */
  pinned: { freeze: Freeze; artifacts: ArtifactRefs };
  store: RunStore;
  /** default: the suite's newest complete run */
  runId?: string;
  residuals: ResidualRisk[];
}

function sameSnapshot(a: ArtifactRefs, b: ArtifactRefs): boolean {
  return (
    a.corpus_id === b.corpus_id &&
    a.query_set_id === b.query_set_id &&
    frozenConfigId(a.config_id) === frozenConfigId(b.config_id) &&
    a.corpus_sha256 === b.corpus_sha256 &&
    a.query_set_sha256 === b.query_set_sha256
  );
}

/**
 * Assemble the closeout from the store. Throws RgateError (exit 2) when: the suite has no complete
 * run, the run was made on another snapshot than the frozen fixture, the gate compares against a
 * baseline and none is set, or the fixture version changed since the baseline without a reset note.
 */
export function buildCloseout(input: CloseoutInput): CloseoutDoc {
  const { store, suite, policy, pinned } = input;
  const row = pickRun(store, suite, input.runId);
  const report = frozenRunReport(store, suite, row, pinned.artifacts);
  const baseline = resolveBaseline(store, suite, report.artifacts, pinned.freeze);
  if (policy.rules.some((r) => r.vs_baseline) && !baseline) {
    throw new RgateError(
      'usage',
      `gate ${policy.gate_id} compares against a baseline and suite "${suite}" has none`,
      `set the frozen baseline run first: rgate baseline set ${suite} <run-id> --note "..."`,
    );
  }
  // the baseline's per-query values: its rules' detectable effect is one of per-query differences
  const baselineReport = baseline ? asReport(store.getReport(baseline.run_id)) : undefined;
  const baselineValues = baselineReport
    ? { per_query: perQueryValues(baselineReport.queries, semanticWinModesOf(baselineReport)) }
    : {};
  const gate = evaluateGate(policy, {
    metrics: report.metrics,
    latency: report.timing.latency_ms,
    query_count: report.queries.length,
    replays: report.settings.replays,
    suite,
    artifacts: report.artifacts,
    per_query: perQueryValues(report.queries, semanticWinModesOf(report)),
    ...(baseline
      ? { baseline: { metrics: baseline.metrics, source: baseline.source, ...baselineValues } }
      : {}),
    // the evidence the run's own report was checked on: the same item must read the same here
    checklist_evidence: checklistEvidence(
      store.getObservations(row.run_id),
      report.replay_proof.identical,
      report.artifacts,
      semanticWinModesOf(report),
    ),
  });
  // the queries that count against the gate this closeout applies, which need not be the run's gate
  const ruled = policy.rules.map((r) => r.metric);
  const { failing } = withFailureReasons(
    report.queries,
    hasSelectionStep(report.queries, ruled),
    semanticWinModesOf(report),
    ruled,
  );
  // a failing mean (nDCG, recall) counts no query by itself: name the queries that moved it
  const evidence = rankingEvidence(
    gate.rules,
    report,
    baseline ? { run_id: baseline.run_id, report: baselineReport } : undefined,
  );
  const metric = (id: string) => report.metrics.find((m) => m.id === id) ?? null;
  const warnings = baseline ? baselineWarnings(row.run_id, report.artifacts, baseline) : [];
  return {
    schema: CLOSEOUT_SCHEMA_VERSION,
    suite,
    ready: gate.verdict !== 'FAIL',
    gate: {
      gate_id: gate.gate_id,
      version: gate.gate_version,
      description: policy.description,
      ...(policy.source ? { source: policy.source } : {}),
      verdict: gate.verdict,
      rules: gate.rules,
      reasons: gate.reasons,
      checklist: gate.checklist,
    },
    freeze: freezeBinding(pinned.freeze),
    run: {
      run_id: row.run_id,
      started_at: row.started_at,
      system: report.system,
      settings: report.settings,
      artifacts: report.artifacts,
      ...(row.plan ? { overrides: overridePairs(row.plan.overrides) } : {}),
    },
    baseline: baseline ? baselineBinding(store, baseline, report.artifacts, pinned.freeze) : null,
    determinism: {
      replays: report.replay_proof.replays,
      seed: report.replay_proof.seed,
      identical: report.replay_proof.identical,
      rollups: report.replay_proof.rollups,
      divergent: report.replay_proof.divergent,
      replay_determinism: metric('replay_determinism'),
      fallback_determinism: metric('fallback_determinism'),
    },
    budget: {
      budget_compliance: metric('budget_compliance'),
      rule: gate.rules.find((r) => r.metric === 'budget_compliance') ?? null,
    },
    failing_queries: failing,
    ...(evidence.length ? { ranking_evidence: evidence } : {}),
    ...(warnings.length ? { warnings } : {}),
    residuals: input.residuals,
    sign_off: SIGN_OFF_ROLES.map((role) => ({ role })),
  };
}

/** The run's stored report, refused when there is none or the run was made on another snapshot. */
function frozenRunReport(store: RunStore, suite: string, row: RunRow, pinned: ArtifactRefs): Report {
  const report = asReport(store.getReport(row.run_id));
  if (!report) {
    throw new RgateError(
      'input_invalid',
      `run ${row.run_id} has no stored report in ${store.location}`,
      `run the suite again: rgate run ${suite}`,
    );
  }
  if (!sameSnapshot(report.artifacts, pinned)) {
    throw new RgateError(
      'freeze_violation',
      `run ${row.run_id} was made on ${report.artifacts.artifact_id} ${report.artifacts.version} (query_set_id ${report.artifacts.query_set_id}, corpus_id ${report.artifacts.corpus_id}); the frozen fixture is now ${pinned.version} (query_set_id ${pinned.query_set_id}, corpus_id ${pinned.corpus_id})`,
      `Gate C closes out a run on the frozen fixture: rgate run ${suite}`,
    );
  }
  return report;
}

/** The baseline as the closeout names it, with the reset note when the fixture version moved since. */
function baselineBinding(
  store: RunStore,
  baseline: ResolvedBaseline,
  current: ArtifactRefs,
  freeze: Freeze,
): NonNullable<CloseoutDoc['baseline']> {
  // resolveBaseline already refused a version change without notes; restate what it found
  const check = checkSnapshotChange(baseline.artifacts, current, freeze.history);
  return {
    run_id: baseline.run_id,
    started_at: store.getRun(baseline.run_id)?.started_at ?? null,
    note: baseline.note ?? null,
    version: baseline.artifacts.version,
    artifacts: baseline.artifacts,
    version_changed: !check.same,
    reset_note: check.same ? null : check.reset_note,
  };
}

/** The frozen fixture the run is bound to: its files and ids, rules and version history. */
function freezeBinding(f: Freeze): CloseoutDoc['freeze'] {
  return {
    verified: true,
    artifact_id: f.artifact_id,
    version: f.version,
    frozen_on: f.frozen_on,
    seal: f.seal,
    files: [
      { part: 'corpus', file: f.files.corpus, id: f.corpus_id, sha256: f.corpus_sha256 },
      { part: 'query_set', file: f.files.query_set, id: f.query_set_id, sha256: f.query_set_sha256 },
      { part: 'config', file: f.files.config, id: f.config_id, sha256: f.config_sha256 },
    ],
    rules: f.rules,
    history: f.history,
  };
}

/**
 * A closeout against its baseline shows a change only when there is one: the run must not be the
 * baseline itself, and should differ from it in snapshot or effective config (config_sha256 covers
 * `--set` overrides). Same inputs again measure only noise, and every vs-baseline rule reads +0.0%.
 */
export function baselineWarnings(
  runId: string,
  run: ArtifactRefs,
  baseline: { run_id: string; artifacts: ArtifactRefs },
): string[] {
  if (baseline.run_id === runId) {
    return [
      `run ${runId} is its own baseline: every vs-baseline rule compares the run with itself (+0.0%) and proves nothing. ` +
        'Run the suite again with the change under review (e.g. rgate run <suite> --set weighting_mode=...) and close out that run.',
    ];
  }
  if (sameSnapshot(run, baseline.artifacts) && run.config_sha256 === baseline.artifacts.config_sha256) {
    return [
      `run ${runId} and its baseline ${baseline.run_id} share the snapshot and the effective config (${run.config_id}): ` +
        'no change is under review, so a vs-baseline difference can only be noise.',
    ];
  }
  return [];
}

/**
 * A config override as the `--set` flags that make it: `weighting_mode=evidence_outcome_bias`,
 * `bm25.k1=0.9` (a nested key dotted, a string bare, any other value as JSON), sorted by key.
 */
export function overridePairs(overrides: object): string[] {
  const pairs: [string, string][] = [];
  const walk = (node: object, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const key = prefix + k;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) walk(v as object, `${key}.`);
      else if (v !== undefined) pairs.push([key, typeof v === 'string' ? v : JSON.stringify(v)]);
    }
  };
  walk(overrides, '');
  return pairs.sort((a, b) => compareCodeUnits(a[0], b[0])).map(([k, v]) => `${k}=${v}`);
}

function pickRun(store: RunStore, suite: string, runId: string | undefined): RunRow {
  if (runId === undefined) return newestCompleteRun(store, suite);
  const row = store.getRun(runId);
  if (!row)
    throw new RgateError(
      'usage',
      `no run ${runId} in ${store.location}`,
      `list runs: rgate history ${suite}`,
    );
  if (row.suite !== suite)
    throw new RgateError(
      'usage',
      `run ${runId} belongs to suite "${row.suite}", not "${suite}"`,
      `close it out under its own suite: rgate closeout ${row.suite} --run ${runId} (or list ${suite}'s runs: rgate history ${suite})`,
    );
  if (row.status !== 'complete')
    throw new RgateError(
      'usage',
      `run ${runId} is ${row.status}: only a complete run can be closed out`,
      row.status === 'failed'
        ? `run the suite again: rgate run ${suite}`
        : row.status === 'interrupted'
          ? `finish it first: rgate run --resume ${runId}`
          : `wait for it to finish (or, if its process is gone: rgate run --resume ${runId})`,
    );
  return row;
}
