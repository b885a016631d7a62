import { SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import { RgateError } from '../src/core/errors.js';
import type {
  Observation,
  PartialConfig,
  GitRef,
  Report,
  RetrievalConfig,
  SuiteSpec,
  StoredPlan,
} from '../src/documents/index.js';
import type { PinnedSuite } from '../src/snapshot/index.js';
import { thisProcess } from '../src/store/run-owner.js';
import type { RunStore } from '../src/store/types.js';
import { createSystem } from '../src/systems/index.js';
import { silentProgress, type Progress } from './progress.js';
import { replayQueries } from './replay.js';
import { timeStage, timeStageAsync, type StageTimer } from './stage-timer.js';
import { buildRunReport, inReportOrder, systemDown, type SystemDown } from './run-report.js';
import {
  planRun,
  plannedRequests,
  systemIdentity,
  type PlanOptions,
  type RunBaseline,
  type RunPlan,
} from './run-plan.js';

export type { SystemDown } from './run-report.js';

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
  /** interrupts the run: no new request starts; the run is stored `interrupted` unless it had them all */
  signal?: AbortSignal;
  /** stop waiting for the requests in flight: they are cut short and not stored (see replayQueries) */
  abandon?: AbortSignal;
  /** overrides of the suite's settings (CLI flags) */
  replays?: number;
  concurrency?: number;
  seed?: number;
  /** extra config overrides on top of the suite's (tuning comparisons) */
  config?: PartialConfig;
  baseline?: RunBaseline;
  rgateVersion?: string;
  /** when the run finished, for the store's `finished_at` (default: the wall clock; never in a report) */
  finishedAt?: () => string;
  /** stop after this many failed requests in a row while none has succeeded yet (system down) */
  systemDownAfter?: number;
  /**
   * `runId` names a stored, unfinished run to continue (`rgate run --resume`): only the (replay,
   * query) pairs it has not observed are performed, and the report covers all of them.
   */
  resume?: boolean;
  /** opt-in stage timings (prepare, replay, read, report and the measure stage inside it, store); never in the report */
  timer?: StageTimer;
  /** the commit and branch the run is made on (the CLI reads them; stored with the run, uploaded with it) */
  git?: GitRef;
  /** the comparison session this run is a variant of (stored with it: not nightly history) */
  compareSession?: string;
  /** the plan preflightSuite made (so a multi-suite run checks every suite before its first request) */
  plan?: RunPlan;
}

/**
 * Everything about a suite that can be known before its first request: the fixture set and its
 * freeze, the config and its parameters, the gate policy and baseline, and the system spec
 * (placeholders, contract). Throws the user's mistakes (RgateError, exit 2); makes no request.
 */
export function preflightSuite(opts: PlanOptions): RunPlan {
  const plan = planRun(opts);
  createSystem(opts.spec.system, {
    corpus: plan.suite.corpus,
    config: plan.config,
    dir: plan.suite.dir,
    baseDir: opts.root,
  });
  return plan;
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
 * The run's whole life in the store is here: begun before the first request (or resumed), finished
 * with its report (complete, interrupted, or failed when the system answered nothing), and marked
 * failed if anything throws after it began, so no run is left "running" by a caller that forgot it.
 */
export async function runSuite(opts: RunSuiteOptions): Promise<RunOutcome> {
  const now = opts.now ?? (() => 0);
  const t0 = now();
  const timer = opts.timer;
  const { plan, system } = timeStage(timer, 'prepare', () => {
    const plan = opts.plan ?? planRun(opts);
    const system = createSystem(opts.spec.system, {
      corpus: plan.suite.corpus,
      config: plan.config,
      dir: plan.suite.dir,
      baseDir: opts.root,
    });
    return { plan, system };
  });
  const identity: Report['system'] = systemIdentity(opts.spec, system.contract, plan.config);
  const done = opts.resume ? resumeStoredRun(opts, plan) : new Set<string>();
  if (!opts.resume) {
    const stored: StoredPlan = { spec: opts.spec, overrides: plan.overrides, system: identity };
    opts.store.beginRun({
      run_id: opts.runId,
      suite: opts.name,
      started_at: opts.startedAt,
      artifacts: plan.artifacts,
      settings: plan.settings,
      plan: stored,
      owner: thisProcess(),
      ...(opts.git ? { git: opts.git } : {}),
      ...(opts.compareSession !== undefined ? { compare_session: opts.compareSession } : {}),
    });
  }
  const finishedAt = opts.finishedAt ?? (() => new Date().toISOString());
  let outcome: RunOutcome;
  try {
    let made;
    try {
      await timeStageAsync(timer, 'prepare', () => system.start());
      made = await timeStageAsync(timer, 'replay', () =>
        replayQueries({
          plan,
          system,
          store: opts.store,
          runId: opts.runId,
          ...(done.size ? { include: (r: number, q: string) => !done.has(pairKey(r, q)) } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.abandon ? { abandon: opts.abandon } : {}),
          progress: opts.progress ?? silentProgress,
          now,
          downAfter: opts.systemDownAfter ?? SYSTEM_DEFAULTS.down_after_failures,
        }),
      );
    } finally {
      await system.close();
    }
    const planned = plannedRequests(plan);
    const down = systemDown(made, planned);
    // Observations live in the store while the run replays, so memory stays flat however long the
    // run; they are read back once, here.
    const observations = timeStage(timer, 'read', () =>
      inReportOrder(opts.store.getObservations(opts.runId)),
    );
    // a signal that came once every request was made (while the system closed) cut nothing short
    const interrupted =
      Boolean(opts.signal?.aborted || opts.abandon?.aborted) && observations.length < planned;
    const report = timeStage(timer, 'report', () =>
      buildRunReport(plan, observations, {
        ...(timer ? { timer } : {}),
        runId: opts.runId,
        startedAt: opts.startedAt,
        ...(opts.rgateVersion ? { rgateVersion: opts.rgateVersion } : {}),
        system: identity,
        wallMs: now() - t0,
        interrupted,
        ...(down ? { down } : {}),
      }),
    );
    outcome = {
      report,
      interrupted,
      observations,
      suite: plan.suite,
      config: plan.config,
      ...(down ? { system_down: down } : {}),
    };
  } catch (e) {
    opts.store.finishRun(opts.runId, { status: 'failed', finished_at: finishedAt(), metrics: [] });
    throw e;
  }
  const { report } = outcome;
  timeStage(timer, 'store', () =>
    opts.store.finishRun(opts.runId, {
      status: outcome.interrupted ? 'interrupted' : outcome.system_down ? 'failed' : 'complete',
      finished_at: finishedAt(),
      gate_id: report.gate.gate_id,
      verdict: report.gate.verdict,
      metrics: report.metrics,
      report,
    }),
  );
  return outcome;
}

function pairKey(replay: number, queryId: string): string {
  return `${replay}\u0000${queryId}`;
}

/**
 * Take a stored run up again: it must be unfinished, of this suite, on the same snapshot and
 * settings (the caller rebuilt the plan from what the run stored), and not still running elsewhere.
 * Returns the (replay, query) pairs already observed.
 */
function resumeStoredRun(opts: RunSuiteOptions, plan: RunPlan): Set<string> {
  const row = opts.store.getRun(opts.runId);
  if (!row)
    throw new RgateError('usage', `no run ${opts.runId} in ${opts.store.location}`, 'see rgate history');
  if (row.status === 'complete') {
    throw new RgateError(
      'usage',
      `run ${opts.runId} is complete: there is nothing to resume`,
      `rgate report ${opts.runId}`,
    );
  }
  if (row.status === 'running') {
    throw new RgateError(
      'usage',
      `run ${opts.runId} is still running${row.owner ? ` (pid ${row.owner.pid} on ${row.owner.host})` : ''}`,
      'wait for it, or stop that process first',
    );
  }
  if (row.suite !== opts.name) {
    throw new RgateError('usage', `run ${opts.runId} is a run of suite ${row.suite}, not ${opts.name}`);
  }
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (!same(row.artifacts, plan.artifacts)) {
    throw new RgateError(
      'freeze_violation',
      `run ${opts.runId} was made on other snapshots than the suite has now; it cannot be resumed`,
      'start a new run: rgate run ' + opts.name,
    );
  }
  if (!same(sortedKeys(row.settings), sortedKeys(plan.settings))) {
    throw new RgateError(
      'usage',
      `run ${opts.runId} was made with other settings (${JSON.stringify(row.settings)})`,
    );
  }
  opts.store.resumeRun(opts.runId, thisProcess());
  return new Set(opts.store.getObservations(opts.runId).map((o) => pairKey(o.replay, o.query_id)));
}

function sortedKeys(v: unknown): unknown {
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
