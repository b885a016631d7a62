import { canonicalJson, compareCodeUnits } from '../src/core/canonical-json.js';
import {
  REPORT_SCHEMA_VERSION,
  type ArtifactRefs,
  type ChecklistItem,
  type GatePolicy,
  type GateResult,
  type MetricEntry,
  type Observation,
  type PartialConfig,
  type QueryRecord,
  type Report,
  type RetrievalConfig,
  type SuiteSpec,
} from '../src/documents/index.js';
import { SUITE_DEFAULTS, SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import { resolveConfig } from '../src/core/resolve-config.js';
import { sha256 } from '../src/core/hash.js';
import { createPrng, deriveSeed, shuffled } from '../src/core/prng.js';
import { computeRunMeasures, hasSelectionFields } from '../src/metrics/index.js';
import { checkSnapshotChange, loadFixtureSet, type PinnedSuite } from '../src/snapshot/index.js';
import type { RunStore } from '../src/store/types.js';
import { createSystem } from '../src/systems/index.js';
import type { SystemAdapter } from '../src/systems/types.js';
import { evaluateGate, loadGatePolicy, separateTimingRules } from '../gates/index.js';
import { storedBaselineFor } from './run-baseline.js';
import { fingerprint } from './fingerprint.js';
import { runPool } from './pool.js';
import { silentProgress, type Progress } from './progress.js';
import { buildReplayProof } from './replay-proof.js';

export interface RunSuiteOptions {
  /** suite name (as in rgate.config.json) */
  name: string;
  spec: SuiteSpec;
  /** project root: fixtures/ and gates/ are resolved under it */
  root: string;
  store: RunStore;
  /** id and start time come from the caller (the clock lives at the edge) */
  runId: string;
  startedAt: string;
  now?: () => number;
  progress?: Progress;
  signal?: AbortSignal;
  /** overrides of the suite's settings (CLI flags) */
  replays?: number;
  concurrency?: number;
  seed?: number;
  /** extra config overrides on top of the suite's (tuning comparisons) */
  config?: PartialConfig;
  baseline?: {
    metrics: MetricEntry[];
    source: string;
    run_id?: string;
    artifacts?: ArtifactRefs;
    reset_note?: string;
  };
  rgateVersion?: string;
  /** when the run finished, for the store's `finished_at` (default: the wall clock; never in a report) */
  finishedAt?: () => string;
  /** stop after this many failed requests in a row while none has succeeded yet (system down) */
  systemDownAfter?: number;
}

/** The system under test answered nothing: every request so far failed. */
export interface SystemDown {
  failed_requests: number;
  planned_requests: number;
  first_error: { kind: string; message: string };
}

export interface RunOutcome {
  report: Report;
  interrupted: boolean;
  /** set when no request succeeded (the run stopped early once `systemDownAfter` failed in a row) */
  system_down?: SystemDown;
  observations: Observation[];
  suite: PinnedSuite;
  config: RetrievalConfig;
}

/**
 * The main job: load the frozen fixture set (verifying its freeze), replay every query R times in
 * seeded shuffled orders, store each Observation as it arrives, compute the measures, evaluate the
 * gate and assemble the report. Errors of the system under test are recorded, never thrown.
 * The run's whole life in the store is here: begun before the first request, finished with its
 * report (complete, interrupted, or failed when the system answered nothing), and marked failed if
 * anything throws after it began, so no run is left "running" by a caller that forgot it.
 */
export async function runSuite(opts: RunSuiteOptions): Promise<RunOutcome> {
  const now = opts.now ?? (() => 0);
  const t0 = now();
  const suite = loadFixtureSet(opts.spec.fixture, { root: opts.root, verify: true });
  const overrides = mergeOverrides(opts.spec.config, opts.config);
  const config = resolveConfig(overrides, suite.config);
  const artifacts = effectiveArtifacts(suite.artifacts, config);
  const replays = opts.replays ?? opts.spec.replays ?? SUITE_DEFAULTS.replays;
  const concurrency = opts.concurrency ?? opts.spec.concurrency ?? SUITE_DEFAULTS.concurrency;
  const seed = opts.seed ?? opts.spec.seed ?? SUITE_DEFAULTS.seed;
  const relevanceLevel = opts.spec.relevance_level ?? SUITE_DEFAULTS.relevance_level;
  const restart = opts.spec.restart_between_replays ?? SUITE_DEFAULTS.restart_between_replays;
  const progress = opts.progress ?? silentProgress;

  // Load the gate and resolve its baseline before replaying: a bad policy or a refused baseline
  // should cost nothing.
  const policy = opts.spec.gate ? loadGatePolicy(opts.spec.gate, opts.root) : undefined;
  const baseline = resolveRunBaseline(opts, policy, artifacts, suite);

  const settings = {
    replays,
    concurrency,
    seed,
    relevance_level: relevanceLevel,
    restart_between_replays: restart,
  };
  opts.store.beginRun({
    run_id: opts.runId,
    suite: opts.name,
    started_at: opts.startedAt,
    artifacts,
    settings,
  });

  const finishedAt = opts.finishedAt ?? (() => new Date().toISOString());
  let outcome: RunOutcome;
  try {
    outcome = await replayAndReport();
  } catch (e) {
    opts.store.finishRun(opts.runId, { status: 'failed', finished_at: finishedAt(), metrics: [] });
    throw e;
  }
  const { report } = outcome;
  opts.store.finishRun(opts.runId, {
    status: outcome.interrupted ? 'interrupted' : outcome.system_down ? 'failed' : 'complete',
    finished_at: finishedAt(),
    gate_id: report.gate.gate_id,
    verdict: report.gate.verdict,
    metrics: report.metrics,
    report,
  });
  return outcome;

  async function replayAndReport(): Promise<RunOutcome> {
    const system = createSystem(opts.spec.system, {
      corpus: suite.corpus,
      config,
      dir: suite.dir,
      baseDir: opts.root,
    });
    const orderSeeds: number[] = [];
    const downAfter = opts.systemDownAfter ?? SYSTEM_DEFAULTS.down_after_failures;
    const planned = replays * suite.queries.length;
    // a system that is down, missing or crashing on start fails every request: stop after a bounded
    // number instead of waiting out every timeout, and say so (exit 3 in the CLI)
    const stopDown = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, stopDown.signal]) : stopDown.signal;
    let succeeded = 0;
    let failedInRow = 0;
    try {
      await system.start();
      for (let r = 1; r <= replays; r++) {
        if (signal.aborted) break;
        if (r > 1 && restart) await system.restart();
        const orderSeed = deriveSeed(seed, `replay-${r}`);
        orderSeeds.push(orderSeed);
        const order = shuffled(suite.queries, createPrng(orderSeed));
        progress.start(`${opts.name} replay ${r}/${replays}`, order.length);
        await runPool(
          order,
          concurrency,
          async (q) => {
            const o = await observe(system, q, r, config, suite.dir, now);
            opts.store.addObservation(opts.runId, o);
            progress.tick(o.ok);
            if (o.ok) {
              succeeded++;
              failedInRow = 0;
            } else {
              failedInRow++;
              if (succeeded === 0 && failedInRow >= downAfter) stopDown.abort();
            }
          },
          signal,
        );
        progress.finish();
      }
    } finally {
      await system.close();
    }
    const interrupted = Boolean(opts.signal?.aborted);

    // Observations live in the store while the run replays, so memory stays flat however long the
    // run; they are read back once, here. Arrival order depends on concurrency and timing; nothing
    // downstream may see it.
    const observations = opts.store
      .getObservations(opts.runId)
      .sort((a, b) => a.replay - b.replay || compareCodeUnits(a.query_id, b.query_id));
    // the first error in that order, not in arrival order, so the report names the same one every time
    const firstFailure = succeeded === 0 ? observations.find((o) => !o.ok) : undefined;
    const down: SystemDown | undefined = firstFailure
      ? {
          failed_requests: observations.length,
          planned_requests: planned,
          first_error: {
            kind: firstFailure.error?.kind ?? 'error',
            message: firstFailure.error?.message ?? '',
          },
        }
      : undefined;

    const measured = computeRunMeasures({
      queries: suite.queries,
      corpus: suite.corpus,
      observations,
      replays,
      relevanceLevel,
      seed,
      rankingMeasures: opts.spec.ranking_measures ?? defaultRankingMeasures(config),
    });
    const proof = buildReplayProof(observations, { replays, seed, orderSeeds });

    const evaluated = policy
      ? evaluateGate(policy, {
          metrics: measured.metrics,
          latency: measured.latency,
          query_count: suite.queries.length,
          replays,
          artifacts,
          ...(baseline ? { baseline: { metrics: baseline.metrics, source: baseline.source } } : {}),
          checklist_evidence: checklistEvidence(observations, proof.identical, artifacts),
        })
      : noGate(measured.metrics);
    // Latency rules read the wall clock: their measured values move to the timing section.
    const { gate, timing_rules } = separateTimingRules(evaluated);
    if (down) {
      gate.verdict = 'FAIL';
      gate.reasons = [
        `system under test down: ${down.failed_requests === planned ? 'all' : `the first ${down.failed_requests} of ${planned}`} requests failed, none succeeded (first error: ${down.first_error.kind}: ${down.first_error.message})`,
        ...gate.reasons,
      ];
    } else if (interrupted) {
      gate.verdict = 'FAIL';
      gate.reasons = [
        `run interrupted: ${observations.length} of ${replays * suite.queries.length} requests observed`,
        ...gate.reasons,
      ];
    }

    const failing = measured.queries.filter(
      (q) =>
        q.top1 !== 'useful' ||
        q.expectation_met === false ||
        !q.deterministic ||
        (q.leaked_tags?.length ?? 0) > 0,
    );
    const report: Report = {
      schema_version: REPORT_SCHEMA_VERSION,
      suite: opts.name,
      system: { name: systemName(opts.spec), kind: opts.spec.system.type, contract: system.contract },
      artifacts,
      settings,
      gate,
      metrics: measured.metrics,
      breakdowns: measured.breakdowns,
      failing_queries: failing,
      queries: measured.queries,
      replay_proof: proof,
      ...(baseline
        ? {
            baseline: {
              source: baseline.source,
              ...(baseline.run_id ? { run_id: baseline.run_id } : {}),
              ...(baseline.artifacts ? { artifacts: baseline.artifacts } : {}),
              ...(baseline.reset_note ? { reset_note: baseline.reset_note } : {}),
            },
          }
        : {}),
      environment: {
        run_id: opts.runId,
        started_at: opts.startedAt,
        rgate_version: opts.rgateVersion ?? '0.0.0',
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      },
      timing: {
        wall_ms: Math.round(now() - t0),
        latency_ms: measured.latency,
        ...(timing_rules.length ? { timing_rules } : {}),
      },
    };
    return { report, interrupted, observations, suite, config, ...(down ? { system_down: down } : {}) };
  }
}

async function observe(
  system: SystemAdapter,
  q: QueryRecord,
  replay: number,
  config: RetrievalConfig,
  fixtureDir: string,
  now: () => number,
): Promise<Observation> {
  const started = now();
  let raw;
  try {
    raw = await system.request(q, { replay, config, fixtureDir });
  } catch (e) {
    // Adapters promise never to throw; if one does, that is still the system's failure, recorded.
    raw = {
      query_id: q.query_id,
      ok: false,
      error: { kind: 'adapter_exception', message: (e as Error)?.message ?? String(e) },
      ranked: [],
      fallback: { triggered: false },
      usage: { files: 0, chars: 0, tokens: 0 },
      latency_ms: now() - started,
      contract: { name: system.contract, valid: false, errors: [] },
    };
  }
  return { ...raw, query_id: q.query_id, replay, fingerprint: fingerprint({ ...raw, query_id: q.query_id }) };
}

type RunBaseline = NonNullable<RunSuiteOptions['baseline']>;

/**
 * The baseline for `vs_baseline` rules: a report file given by the caller, else the suite's baseline
 * in the run store. Either way, a baseline on other snapshot ids is refused unless the fixture's
 * freeze history carries a reset note for every version step, which the report then cites.
 */
function resolveRunBaseline(
  opts: RunSuiteOptions,
  policy: GatePolicy | undefined,
  artifacts: ArtifactRefs,
  suite: PinnedSuite,
): RunBaseline | undefined {
  if (opts.baseline) {
    if (!opts.baseline.artifacts) return opts.baseline;
    const check = checkSnapshotChange(
      opts.baseline.artifacts,
      artifacts,
      suite.freeze.history,
      `baseline report ${opts.baseline.source}`,
    );
    return check.same ? opts.baseline : { ...opts.baseline, reset_note: check.reset_note };
  }
  return storedBaselineFor(opts.store, opts.name, policy, artifacts, suite.freeze);
}

function mergeOverrides(a: PartialConfig | undefined, b: PartialConfig | undefined): PartialConfig {
  if (!a) return b ?? {};
  if (!b) return a;
  return resolveConfig(b, resolveConfig(a)) as PartialConfig;
}

/**
 * With config overrides (suite or tuning) that change the effective config, the config id names the
 * effective config, not the frozen file. Overrides that restate the frozen values change nothing.
 */
function effectiveArtifacts(frozen: ArtifactRefs, config: RetrievalConfig): ArtifactRefs {
  const digest = sha256(canonicalJson(config));
  if (digest === frozen.config_sha256) return frozen;
  return { ...frozen, config_id: `${frozen.config_id}+overrides`, config_sha256: digest };
}

function defaultRankingMeasures(config: RetrievalConfig): string[] {
  return config.mode === 'bm25'
    ? ['map', 'P.30', 'ndcg_cut.10', 'recall.1000']
    : ['ndcg_cut.5', 'recall.10', 'recip_rank'];
}

function systemName(spec: SuiteSpec): string {
  const s = spec.system;
  if (s.type === 'builtin') return `builtin:${s.mode ?? 'config'}`;
  if (s.type === 'command') return s.argv.join(' ');
  return s.url;
}

/** Evidence for the seed-001 QA checklist, computed from what was observed. */
function checklistEvidence(
  observations: readonly Observation[],
  replayIdentical: boolean,
  artifacts: ArtifactRefs,
) {
  const complete = observations.filter(hasSelectionFields).length;
  const fallbacks = observations.filter((o) => o.fallback.triggered);
  return {
    pinned: Boolean(artifacts.corpus_id && artifacts.query_set_id && artifacts.config_id),
    every_response_has_selection_fields: { numerator: complete, denominator: observations.length },
    fallback_ordering_evidenced: fallbacks.every((o) => o.selection_mode !== 'semantic'),
    fallback_observations: fallbacks.length,
    replay_identical: replayIdentical,
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
