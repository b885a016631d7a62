import { compareCodeUnits } from '../src/core/canonical-json.js';
import { CONTRACT_DEFAULTS } from '../src/core/defaults.js';
import {
  REPORT_SCHEMA_VERSION,
  type ChecklistItem,
  type GateResult,
  type MetricEntry,
  type Observation,
  type Report,
  type RunEvidence,
  NO_GATE_ID,
} from '../src/documents/index.js';
import {
  computeRunMeasures,
  EvidenceIndex,
  hasSelectionStep,
  perQueryValues,
  rankingHoleFills,
  usefulnessRule,
} from '../src/metrics/index.js';
import { evaluateGate, separateTimingRules } from '../gates/index.js';
import { checklistEvidence } from './checklist-evidence.js';
import { orderSeed } from './replay.js';
import { contractViolations } from './contract-violations.js';
import { peerFigures } from './peer-figures.js';
import { errorSummary, warningSummary, withFirstErrors } from './error-summary.js';
import { fallbackReasonSummary } from './fallback-reasons.js';
import { withFailureReasons } from './failure-reasons.js';
import { notApplicableProbes } from './not-applicable.js';
import { buildReplayProof } from './replay-proof.js';
import { effectiveSystem, type RunBaseline, type RunPlan } from './run-plan.js';
import { timeStage, type StageTimer } from './stage-timer.js';
import { top1Split } from './top1-split.js';
import { withVerdictHoles } from './verdict-holes.js';

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
  // the one index every measure and section below reads: what ran, grouped by query and replay
  const evidence = new EvidenceIndex(plan.suite.queries, observations, replays);
  const state = c.down ? 'down' : c.partial ? 'partial' : c.interrupted ? 'interrupted' : 'complete';
  const na = notApplicableProbes(
    plan.suite.queries,
    effectiveSystem(plan.spec, plan.config),
    plan.config.mode,
  );
  const measureInput = {
    semanticWinModes,
    queries: plan.suite.queries,
    corpus: plan.suite.corpus,
    observations: evidence.observations,
    evidence,
    replays,
    relevanceLevel,
    seed,
    rankingMeasures: plan.rankingMeasures,
    notApplicable: na.byQuery,
  };
  const measured = timeStage(c.timer, 'measure', () => computeRunMeasures(measureInput));
  const proof = buildReplayProof(evidence, { seed, orderSeeds: orderSeedsRun(evidence, seed) });
  const ran = evidence.summary(state);

  const { gate: measuredGate, timing_rules } = gateFinding(
    plan,
    measured,
    proof.identical,
    evidence,
    semanticWinModes,
  );
  overrule(measuredGate, c, ran.requests, Boolean(plan.policy));

  const measuredQueries = withFirstErrors(measured.queries, evidence);
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
  const qrels = new Map(plan.suite.queries.map((q) => [q.query_id, q.qrels]));
  // the ranking measures the gate's rules read, scored again with their holes filled either way
  const ruledRanking = (measuredGate.overruled ? [] : measuredGate.rules).map((r) => r.metric);
  const fills = rankingHoleFills(
    { ...measureInput, rankingMeasures: [] },
    ruledRanking.filter((m) => measured.metrics.some((e) => e.id === m)),
  );
  const gate = withVerdictHoles(
    measuredGate,
    queries,
    selection,
    semanticWinModes,
    (id) => qrels.get(id),
    fills,
  );
  const violations = contractViolations(plan.suite.queries, evidence.observations);
  const peers = peerFigures(
    c.system,
    plan.suite.queries,
    plan.suite.corpus,
    evidence.observations,
    measured.metrics,
  );
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
    evidence: ran,
    errors: errorSummary(evidence.observations),
    ...(violations ? { contract_violations: violations } : {}),
    ...(peers ? { peer_figures: peers } : {}),
    ...(na.section.length ? { not_applicable: na.section } : {}),
    warnings: warningSummary(evidence.observations),
    fallback_reasons: fallbackReasonSummary(evidence.observations),
    ...(plan.baseline ? { baseline: baselineSection(plan.baseline) } : {}),
    environment: environmentOf(c),
    timing: {
      wall_ms: Math.round(c.wallMs),
      latency_ms: measured.latency,
      ...(timing_rules.length ? { timing_rules } : {}),
    },
  };
}

/** The order seeds of the replays that made observations (every replay, for a finished run). */
function orderSeedsRun(evidence: EvidenceIndex, seed: number): number[] {
  const seen = new Set(evidence.observations.map((o) => o.replay));
  const out: number[] = [];
  for (let r = 1; r <= evidence.replays; r++) if (seen.has(r)) out.push(orderSeed(seed, r));
  return out;
}

/** The gate's finding: the policy evaluated (NONE without one), latency rules moved to the timing section. */
function gateFinding(
  plan: RunPlan,
  measured: ReturnType<typeof computeRunMeasures>,
  identical: boolean,
  evidence: EvidenceIndex,
  semanticWinModes: readonly string[],
): ReturnType<typeof separateTimingRules> {
  const evaluated = plan.policy
    ? evaluateGate(plan.policy, {
        metrics: measured.metrics,
        latency: measured.latency,
        query_count: plan.suite.queries.length,
        replays: plan.settings.replays,
        suite: plan.name,
        artifacts: plan.artifacts,
        per_query: perQueryValues(measured.queries, semanticWinModes),
        ...(plan.baseline
          ? {
              baseline: {
                metrics: plan.baseline.metrics,
                source: plan.baseline.source,
                ...(plan.baseline.per_query ? { per_query: plan.baseline.per_query } : {}),
              },
            }
          : {}),
        checklist_evidence: checklistEvidence(evidence.observations, identical, plan.artifacts, [
          ...semanticWinModes,
        ]),
      })
    : noGate(measured.metrics);
  // Latency rules read the wall clock: their measured values move to the timing section.
  return separateTimingRules(evaluated);
}

/**
 * Why a run that did not complete gives no verdict, counting only the requests made; undefined when
 * the run completed. The first reason of an overruled gate, and the sentence the docs quote.
 */
export function overrulingReason(
  c: Pick<ReportContext, 'down' | 'partial' | 'interrupted'>,
  { planned, made }: Pick<RunEvidence['requests'], 'planned' | 'made'>,
): string | undefined {
  const notRun = planned > made ? `; ${planned - made} of ${planned} planned were never made` : '';
  return c.down
    ? `system under test down: ${c.down.failed_requests === 1 ? 'the 1 request' : `all ${c.down.failed_requests} requests`} made failed, none succeeded${notRun} (first error: ${c.down.first_error.kind}: ${c.down.first_error.message})`
    : c.partial
      ? `partial run (${c.partial}): ${made} of ${planned} planned requests made; not a verdict on the system`
      : c.interrupted
        ? `run interrupted: ${made} of ${planned} planned requests made`
        : undefined;
}

/**
 * A run that did not complete overrules its rules: they were measured on what was observed, so none
 * is a verdict; the first reason says what happened, counting only the requests made.
 */
function overrule(
  gate: GateResult,
  c: ReportContext,
  requests: RunEvidence['requests'],
  gated: boolean,
): void {
  const overruling = overrulingReason(c, requests);
  if (!overruling) return;
  // a suite with no gate keeps its NONE: the run failed, but no gate judged it
  if (gated) gate.verdict = 'FAIL';
  // no verdict on judgments when the run itself did not complete
  if (c.down) gate.cause = 'system';
  else delete gate.cause;
  gate.reasons = [overruling, ...gate.reasons];
  gate.overruled = c.down ? 'down' : c.partial ? 'partial' : 'interrupted';
}

function baselineSection(b: RunBaseline): NonNullable<Report['baseline']> {
  return {
    source: b.source,
    ...(b.run_id ? { run_id: b.run_id } : {}),
    ...(b.artifacts ? { artifacts: b.artifacts } : {}),
    ...(b.reset_note ? { reset_note: b.reset_note } : {}),
  };
}

/** The one section that names the machine: it may differ between runs of the same inputs. */
function environmentOf(c: ReportContext): Report['environment'] {
  return {
    run_id: c.runId,
    started_at: c.startedAt,
    rgate_version: c.rgateVersion ?? '0.0.0',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
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

/** No gate judged the run: verdict NONE, never a PASS nobody gated. */
function noGate(metrics: MetricEntry[]): GateResult {
  const checklist: ChecklistItem[] = [];
  return {
    gate_id: NO_GATE_ID,
    gate_version: '-',
    verdict: 'NONE',
    rules: [],
    reasons: [`no gate policy for this suite: ${metrics.length} measures reported, nothing enforced`],
    checklist,
  };
}
