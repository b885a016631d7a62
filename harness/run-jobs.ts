/**
 * `rgate run`'s use-case: the suites an invocation names (or the one stored run it resumes) as jobs,
 * each checked before the first request of any, then run one after another until the invocation is
 * stopped. The CLI parses flags into jobs, calls these, and renders what they return.
 */
import { EXIT, RgateError } from '../src/core/errors.js';
import type { GitRef, PartialConfig, Report, SuiteSpec } from '../src/documents/index.js';
import type { RunStore } from '../src/store/types.js';
import type { Progress } from './progress.js';
import type { RunBaseline, RunPlan } from './run-plan.js';
import { preflightSuite, runSuite, type RunOutcome, type RunSuiteOptions } from './run-suite.js';
import type { StageTimer } from './stage-timer.js';

export interface RunJob {
  name: string;
  spec: SuiteSpec;
  runId: string;
  startedAt: string;
  resume: boolean;
  config?: PartialConfig;
  replays?: number;
  concurrency?: number;
  seed?: number;
  /** checked before any suite ran (preflightJobs) */
  plan?: RunPlan;
}

/** Overrides of a suite's settings an invocation gives (flags). */
export interface JobOverrides {
  config?: PartialConfig;
  replays?: number;
  concurrency?: number;
  seed?: number;
}

/** One job per suite named, each with the invocation's overrides and an id from `newRun`. */
export function suiteJobs(
  names: readonly string[],
  suites: Readonly<Record<string, SuiteSpec>>,
  o: JobOverrides,
  newRun: () => { runId: string; startedAt: string },
): RunJob[] {
  return names.map((name) => ({
    name,
    spec: suites[name]!,
    ...newRun(),
    resume: false,
    ...(o.config && Object.keys(o.config).length ? { config: o.config } : {}),
    ...(o.replays !== undefined ? { replays: o.replays } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
  }));
}

/** A job's overrides of its suite's settings, as runSuite and preflightSuite take them. */
export function jobSettings(
  job: RunJob,
): Pick<RunSuiteOptions, 'config' | 'replays' | 'concurrency' | 'seed'> {
  return {
    ...(job.config ? { config: job.config } : {}),
    ...(job.replays !== undefined ? { replays: job.replays } : {}),
    ...(job.concurrency !== undefined ? { concurrency: job.concurrency } : {}),
    ...(job.seed !== undefined ? { seed: job.seed } : {}),
  };
}

/** The stored run `runId` as a job: its suite spec, overrides and settings, as it began. */
export function resumeJob(store: RunStore, runId: string): RunJob {
  const row = store.getRun(runId);
  if (!row) throw new RgateError('usage', `no run ${runId} in ${store.location}`, 'see rgate history');
  const stored = row.plan;
  if (!stored) {
    throw new RgateError(
      'usage',
      `run ${runId} was made by an older rgate that did not keep its plan: it cannot be resumed`,
    );
  }
  const settings = row.settings;
  return {
    name: row.suite,
    spec: stored.spec,
    runId: row.run_id,
    startedAt: row.started_at,
    resume: true,
    config: stored.overrides,
    replays: settings.replays,
    concurrency: settings.concurrency,
    seed: settings.seed,
  };
}

/**
 * Fail before spending: every job is checked (fixture, freeze, config, gate, placeholders) before
 * the first request of the first one. `readAhead` reads what a job's reports will read of the store
 * (the CLI's history chart); `locate` turns a job's error into one naming its place in the config.
 */
export function preflightJobs(
  jobs: RunJob[],
  o: {
    root: string;
    store: RunStore;
    baseline?: RunBaseline;
    readAhead?: (job: RunJob) => void;
    locate?: (job: RunJob, e: unknown) => unknown;
  },
): void {
  for (const job of jobs) {
    o.readAhead?.(job);
    if (job.resume) continue;
    try {
      job.plan = preflightSuite({
        name: job.name,
        spec: job.spec,
        root: o.root,
        store: o.store,
        ...jobSettings(job),
        ...(o.baseline ? { baseline: o.baseline } : {}),
      });
    } catch (e) {
      throw o.locate ? o.locate(job, e) : e;
    }
  }
}

export interface RunJobsOptions {
  root: string;
  store: RunStore;
  now: () => number;
  progress: () => Progress;
  /** no new request starts once aborted; `abandon` cuts the ones in flight short */
  signal?: AbortSignal;
  abandon?: AbortSignal;
  /** asked before each job: true once the invocation was stopped (the job is then not run) */
  stopped: () => Promise<boolean>;
  baseline?: RunBaseline;
  git?: GitRef;
  timer?: StageTimer;
  rgateVersion: string;
  /** the run being replayed (undefined between runs): a forced exit marks it interrupted */
  replaying?: (runId: string | undefined) => void;
  /** each finished run, in order, before the next starts (reports written, uploads made) */
  finished: (job: RunJob, outcome: RunOutcome) => Promise<void>;
}

/** What an invocation ran: the reports in job order, and the jobs interrupted, never run, or down. */
export interface RunJobsResult {
  reports: Report[];
  interrupted: { job: RunJob; outcome: RunOutcome }[];
  notRun: string[];
  down: { job: RunJob; outcome: RunOutcome }[];
}

/** Run the jobs one after another until the invocation is stopped. */
export async function runJobs(jobs: readonly RunJob[], o: RunJobsOptions): Promise<RunJobsResult> {
  const result: RunJobsResult = { reports: [], interrupted: [], notRun: [], down: [] };
  for (const job of jobs) {
    if (await o.stopped()) {
      result.notRun.push(job.name);
      continue;
    }
    o.replaying?.(job.runId);
    const outcome = await runSuite({
      name: job.name,
      spec: job.spec,
      root: o.root,
      store: o.store,
      runId: job.runId,
      startedAt: job.startedAt,
      resume: job.resume,
      now: o.now,
      progress: o.progress(),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.abandon ? { abandon: o.abandon } : {}),
      ...jobSettings(job),
      ...(job.plan ? { plan: job.plan } : {}),
      ...(o.baseline ? { baseline: o.baseline } : {}),
      ...(o.git ? { git: o.git } : {}),
      ...(o.timer ? { timer: o.timer } : {}),
      rgateVersion: o.rgateVersion,
    });
    o.replaying?.(undefined);
    await o.finished(job, outcome);
    result.reports.push(outcome.report);
    if (outcome.system_down) result.down.push({ job, outcome });
    if (outcome.interrupted) result.interrupted.push({ job, outcome });
  }
  return result;
}

/**
 * The invocation's exit code: a signal's own (130/143) first, whatever ran; then 3 when a system
 * answered nothing (not a gate verdict on it); 1 when a gate failed; else 0 (WATCH and NONE included).
 */
export function runExitCode(result: RunJobsResult, signalCode?: number): number {
  if (signalCode !== undefined) return signalCode;
  if (result.down.length) return EXIT.internal;
  return result.reports.some((r) => r.gate.verdict === 'FAIL') ? EXIT.gateFail : EXIT.ok;
}
