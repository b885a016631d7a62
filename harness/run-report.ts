import { compareCodeUnits } from '../src/core/canonical-json.js';
import { CONTRACT_DEFAULTS } from '../src/core/defaults.js';
import {
  REPORT_SCHEMA_VERSION,
  type ChecklistItem,
  type GateResult,
  type MetricEntry,
  type Observation,
  type Report,
} from '../src/documents/index.js';
import { computeRunMeasures, hasSelectionStep, usefulnessRule } from '../src/metrics/index.js';
import { evaluateGate, separateTimingRules } from '../gates/index.js';
import { checklistEvidence } from './checklist-evidence.js';
import { orderSeed } from './replay.js';
import { contractViolations } from './contract-violations.js';
import { peerFigures } from './peer-figures.js';
import { errorSummary, warningSummary, withFirstErrors } from './error-summary.js';
import { withFailureReasons } from './failure-reasons.js';
import { notApplicableProbes } from './not-applicable.js';
import { buildReplayProof } from './replay-proof.js';
import { effectiveSystem, plannedRequests, type RunPlan } from './run-plan.js';
import { timeStage, type StageTimer } from './stage-timer.js';
import { top1Split } from './top1-split.js';

/** The system under test answered nothing: every request so far failed. */
export interface SystemDown {
  failed_requests: number;
  planned_requests: number;
  first_error: { kind: string; message: string };
  /**
   * the failed requests that were answered, but in a shape the suite's contract cannot measure
   * (`contract_invalid`), and the first of their errors in report order; absent when none was
   */
  unmeasurable?: { requests: number; first_message: string };
}

export interface ReportContext {
  runId: string;
  startedAt: string;
  rgateVersion?: string;
  system: Report['system'];
  wallMs: number;
  /** stopped by the caller before every request was made */
  interrupted?: boolean;
  /** no request succeeded (stopped early, or all failed) */
  down?: SystemDown;
  /** a run that is not finished (running, abandoned, interrupted) reported as it stands: never a PASS */
  partial?: string;
  /** opt-in stage timings: 'measure' (computeRunMeasures); never reported */
  timer?: StageTimer;
}

/** Observations in (replay, query id) order: arrival order depends on timing and must not reach a report. */
export function inReportOrder(observations: Observation[]): Observation[] {
  return observations.sort((a, b) => a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id));
}

/**
 * Measure, gate and assemble the report from a run's observations. Pure given its inputs (the
 * environment and timing sections aside), so a run, its resume and the merge of its shards report
 * the same bytes for the same observations.
 */
export function buildRunReport(
  plan: RunPlan,
  observations: readonly Observation[],
  c: ReportContext,
): Report {
  const { replays, seed, relevance_level: relevanceLevel } = plan.settings;
  // a stored plan older than the setting names none: such a run is measured with today's default
  const semanticWinModes = c.system.semantic_win_modes ?? [...CONTRACT_DEFAULTS.semantic_win_modes];
  const na = notApplicableProbes(
    plan.suite.queries,
    effectiveSystem(plan.spec, plan.config),
    plan.config.mode,
  );
  const measured = timeStage(c.timer, 'measure', () =>
    computeRunMeasures({
      semanticWinModes,
      queries: plan.suite.queries,
      corpus: plan.suite.corpus,
      observations: [...observations],
      replays,
      relevanceLevel,
      seed,
      rankingMeasures: plan.rankingMeasures,
      notApplicable: na.byQuery,
    }),
  );
  // the order seeds of the replays that made observations (every replay, for a finished run)
  const seen = new Set(observations.map((o) => o.replay));
  const orderSeeds: number[] = [];
  for (let r = 1; r <= replays; r++) if (seen.has(r)) orderSeeds.push(orderSeed(seed, r));
  const proof = buildReplayProof([...observations], { replays, seed, orderSeeds });

  const evaluated = plan.policy
    ? evaluateGate(plan.policy, {
        metrics: measured.metrics,
        latency: measured.latency,
        query_count: plan.suite.queries.length,
        replays,
        suite: plan.name,
        artifacts: plan.artifacts,
        ...(plan.baseline
          ? { baseline: { metrics: plan.baseline.metrics, source: plan.baseline.source } }
          : {}),
        checklist_evidence: checklistEvidence(
          observations,
          proof.identical,
          plan.artifacts,
          semanticWinModes,
        ),
      })
    : noGate(measured.metrics);
  // Latency rules read the wall clock: their measured values move to the timing section.
  const { gate, timing_rules } = separateTimingRules(evaluated);
  const planned = plannedRequests(plan);
  const overruling = c.down
    ? `system under test down: ${c.down.failed_requests === planned ? 'all' : `the first ${c.down.failed_requests} of ${planned}`} requests failed, none succeeded (first error: ${c.down.first_error.kind}: ${c.down.first_error.message})`
    : c.partial
      ? `partial run (${c.partial}): ${observations.length} of ${planned} requests observed; not a verdict on the system`
      : c.interrupted
        ? `run interrupted: ${observations.length} of ${planned} requests observed`
        : undefined;
  if (overruling) {
    gate.verdict = 'FAIL';
    // no verdict on judgments when the run itself did not complete
    if (c.down) gate.cause = 'system';
    else delete gate.cause;
    gate.reasons = [overruling, ...gate.reasons];
    gate.overruled = c.down ? 'down' : c.partial ? 'partial' : 'interrupted';
  }

  const measuredQueries = withFirstErrors(measured.queries, observations);
  const selection = hasSelectionStep(
    measuredQueries,
    (plan.policy?.rules ?? []).map((r) => r.metric),
  );
  const { queries, failing } = withFailureReasons(
    measuredQueries,
    selection,
    semanticWinModes,
    // what the gate judges: its rules, timing rules included; none without a policy
    plan.policy ? plan.policy.rules.map((r) => r.metric) : undefined,
  );
  const b = plan.baseline;
  const violations = contractViolations(plan.suite.queries, observations);
  const peers = peerFigures(c.system, plan.suite.queries, plan.suite.corpus, observations, measured.metrics);
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    suite: plan.name,
    system: { ...c.system, semantic_win_modes: semanticWinModes },
    artifacts: plan.artifacts,
    settings: plan.settings,
    judging: {
      top1_useful_rule: usefulnessRule(plan.suite.queries, relevanceLevel),
      selection_step: selection,
      top1_split: top1Split(queries, selection, semanticWinModes),
    },
    gate,
    metrics: measured.metrics,
    breakdowns: measured.breakdowns,
    failing_queries: failing,
    queries,
    replay_proof: proof,
    errors: errorSummary(observations),
    ...(violations ? { contract_violations: violations } : {}),
    ...(peers ? { peer_figures: peers } : {}),
    ...(na.section.length ? { not_applicable: na.section } : {}),
    warnings: warningSummary(observations),
    ...(b
      ? {
          baseline: {
            source: b.source,
            ...(b.run_id ? { run_id: b.run_id } : {}),
            ...(b.artifacts ? { artifacts: b.artifacts } : {}),
            ...(b.reset_note ? { reset_note: b.reset_note } : {}),
          },
        }
      : {}),
    environment: {
      run_id: c.runId,
      started_at: c.startedAt,
      rgate_version: c.rgateVersion ?? '0.0.0',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    timing: {
      wall_ms: Math.round(c.wallMs),
      latency_ms: measured.latency,
      ...(timing_rules.length ? { timing_rules } : {}),
    },
  };
}

/** No request made now succeeded: the system is down, named by its first error. */
export function systemDown(
  made: { requests: number; succeeded: number; failuresBeforeSuccess: Observation[] },
  planned: number,
): SystemDown | undefined {
  if (made.requests === 0 || made.succeeded > 0) return undefined;
  // the first error in report order, not arrival order, so the report names the same one every time
  const ordered = inReportOrder([...made.failuresBeforeSuccess]);
  const first = ordered[0]!;
  const unmeasurable = ordered.filter((o) => o.error?.kind === 'contract_invalid');
  return {
    failed_requests: made.requests,
    planned_requests: planned,
    first_error: { kind: first.error?.kind ?? 'error', message: first.error?.message ?? '' },
    ...(unmeasurable.length > 0
      ? {
          unmeasurable: {
            requests: unmeasurable.length,
            first_message: unmeasurable[0]!.error?.message ?? '',
          },
        }
      : {}),
  };
}

function noGate(metrics: MetricEntry[]): GateResult {
  const checklist: ChecklistItem[] = [];
  return {
    gate_id: 'measures-only',
    gate_version: '-',
    verdict: 'PASS',
    rules: [],
    reasons: [`no gate policy for this suite: ${metrics.length} measures reported, nothing enforced`],
    checklist,
  };
}
