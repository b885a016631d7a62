import { resolveRunRef } from '../run-ref.js';
import { mkdirSync, writeFileSync } from 'node:fs';

import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import type { Report } from '../../documents/index.js';
// the stores' own modules, not store/index.js: that one loads pg (and with it undici), which a run never uses
import { MemoryRunStore } from '../../store/memory-store.js';
import { SqliteRunStore } from '../../store/sqlite-store.js';
import type { RunStore } from '../../store/types.js';
import { loadRgateConfig, locateSuiteError } from '../../systems/rgate-config.js';
import {
  jobSettings,
  preflightJobs,
  resumeJob,
  runExitCode,
  runJobs,
  suiteJobs,
  type RunJob,
  type RunJobsResult,
} from '../../../harness/run-jobs.js';
import { createProgress } from '../../../harness/progress.js';
import { runShard, parseShard, type Shard } from '../../../harness/shard.js';
import type { RunOutcome } from '../../../harness/run-suite.js';
import { renderJson, renderTerminal } from '../../../reports/index.js';
import { renderOverall } from '../../../reports/run/overall.js';
import { writeRunReports } from '../run-reports.js';
import { readHistoryAhead } from '../../../history/trends-up-to.js';
import { outDirOf } from '../out-dir.js';
import { gitField } from '../git-ref.js';
import { uploadStoredRun, uploadTargetOf, vsBaseFailed, withUploadFlags } from '../upload-flags.js';
import type { CliIo, RgateCommand } from '../command.js';
import { newRunId, rgateVersion } from '../run-context.js';
import { parseSetFlags } from '../set-flags.js';
import { checkVariantEffects } from '../variant-effects.js';
import { baselineFromReportFile } from '../baseline-input.js';
import { writeTrecRun } from '../trec-run-file.js';
import { stageTimingsFromEnv } from '../stage-timings.js';
import { systemDownLines } from '../system-down.js';
import { interruptGraceMs, watchInterrupts, type Interrupt } from '../interrupt.js';
import { terminalWidth } from '../io.js';
import { timeStage } from '../../../harness/stage-timer.js';

interface RunArgs {
  suites: string[];
  config?: string | false;
  replays?: number;
  concurrency?: number;
  seed?: number;
  'trec-run'?: string;
  json?: boolean;
  'out-dir'?: string;
  store?: string | false;
  baseline?: string;
  set?: string[];
  resume?: string;
  shard?: string;
  'shard-out'?: string;
  upload?: string;
  project?: string;
  'token-env'?: string;
  retries?: number;
}

export const runCommand: RgateCommand<RunArgs> = {
  command: 'run [suites..]',
  describe: 'Replay the suites against their systems, measure, gate and write reports',
  builder: (y: Argv) =>
    withUploadFlags(y)
      .option('upload', {
        type: 'string',
        describe:
          "then upload each finished run to this rgate server (with --project; token from --token-env); prints the run's URL",
      })
      .positional('suites', {
        type: 'string',
        array: true,
        describe: 'suite names from rgate.config.json (default: its default_suites)',
      })
      .option('config', {
        type: 'string',
        describe: 'path to rgate.config.json (default: found from the cwd upward)',
      })
      .option('replays', { type: 'number', describe: 'replays per query (overrides the suite)' })
      .option('concurrency', { type: 'number', describe: 'requests in flight (overrides the suite)' })
      .option('seed', { type: 'number', describe: 'seed for the replay orders and bootstrap intervals' })
      .option('set', {
        type: 'string',
        array: true,
        describe: 'config override key=value (e.g. weighting_mode=uniform)',
      })
      .option('trec-run', { type: 'string', describe: "also write replay 1's rankings as a TREC run file" })
      .option('baseline', {
        type: 'string',
        describe: 'a previous report.json to compare baseline rules against',
      })
      .option('json', {
        type: 'boolean',
        describe:
          'print the JSON report on stdout instead of the summary: an object for one suite named (or --resume), an array for the default suites or several named (even of one)',
      })
      .option('resume', {
        type: 'string',
        describe: 'finish a stored run that was interrupted or abandoned: only its missing requests are made',
      })
      .option('shard', {
        type: 'string',
        describe:
          'run slice i/n of the (query x replay) requests and write a shard file (CI matrix); see rgate merge',
      })
      .option('shard-out', {
        type: 'string',
        describe: 'with --shard: the shard file (default <out-dir>/shards/<suite>-<i>of<n>.json)',
      })
      .option('out-dir', {
        type: 'string',
        describe: 'where runs/<run-id>/ and history.sqlite go (default: .rgate/ beside rgate.config.json)',
      })
      .option('store', {
        describe: 'run history file (default <out-dir>/history.sqlite); --no-store keeps it in memory',
      })
      .example('$0 run', 'run the default suites (what `npm run gate` does)')
      .example('$0 run semantic --replays 30', 'one suite, 30 replays for the determinism proof')
      .example('$0 run cacm --trec-run cacm.run', 'score the same rankings with trec_eval afterwards')
      .example(
        '$0 run context-load --set weighting_mode=evidence_outcome_bias --json',
        'a variant, report as JSON',
      )
      .example('$0 run --resume 20261122T070501Z-3f9a1c', 'finish a run whose process was killed')
      .example('$0 run semantic --shard 2/3', 'one runner of a 3-way CI matrix; then rgate merge')
      .example(
        '$0 run --upload https://rgate.example.org --project search',
        "nightly CI: gate, then upload (token in RGATE_SERVER_TOKEN); the exit code stays the gate's",
      ),
  handler: async (args, io) => runHandler(args, io),
};

/** The invocation as its flags and rgate.config.json state it, every usage mistake refused first. */
function parseInvocation(args: RunArgs, io: CliIo) {
  for (const [flag, v] of [
    ['--replays', args.replays],
    ['--concurrency', args.concurrency],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) {
      throw new RgateError('usage', `${flag} ${v}: must be a whole number >= 1`);
    }
  }
  if (args.seed !== undefined && (!Number.isInteger(args.seed) || args.seed < 0)) {
    throw new RgateError('usage', `--seed ${args.seed}: must be a whole number >= 0`);
  }
  const loaded = loadRgateConfig(io.cwd, args.config);
  if (!loaded) {
    throw new RgateError(
      'usage',
      'no rgate.config.json found in this folder or above it',
      'start one with `rgate init` (see README "Gate your own retriever"), or pass --config <file>',
    );
  }
  const { config, path: configPath } = loaded;
  const root = dirname(configPath);
  const names = args.resume
    ? []
    : args.suites?.length
      ? args.suites
      : (config.default_suites ?? Object.keys(config.suites).sort());
  for (const n of names) {
    if (!config.suites[n]) {
      throw new RgateError(
        'usage',
        `no suite named "${n}"${configPath ? ` in ${relative(io.cwd, configPath) || configPath}` : ''}`,
        `known suites: ${Object.keys(config.suites).sort().join(', ') || '(none)'}`,
      );
    }
  }
  const overrides = parseSetFlags(args.set ?? []);
  const baseline = args.baseline ? baselineFromReportFile(resolve(io.cwd, args.baseline)) : undefined;
  const shard = args.shard !== undefined ? parseShard(args.shard) : undefined;
  // checked before the first request: a missing token must not cost a whole run
  const uploadTarget =
    args.upload !== undefined ? uploadTargetOf(args.upload, args, io, '--upload') : undefined;
  if (uploadTarget && shard) {
    throw new RgateError(
      'usage',
      '--upload uploads a whole run: upload after rgate merge (merge --upload), not per shard',
    );
  }
  if (shard && names.length !== 1) {
    throw new RgateError(
      'usage',
      `--shard runs one suite; name it (${names.length} given)`,
      'rgate run semantic --shard 1/3',
    );
  }
  if (
    args.resume &&
    (args.suites?.length ||
      shard ||
      args.set?.length ||
      args.replays ||
      args.concurrency ||
      args.seed !== undefined)
  ) {
    throw new RgateError(
      'usage',
      "--resume takes the run id only: the suite, settings and overrides are the stored run's",
    );
  }
  return { loaded, config, configPath, root, names, overrides, baseline, shard, uploadTarget };
}

async function runHandler(args: RunArgs, io: CliIo): Promise<number> {
  const { loaded, config, configPath, root, names, overrides, baseline, shard, uploadTarget } =
    parseInvocation(args, io);
  const graceMs = interruptGraceMs(io.env);
  const outDir = outDirOf(io, args['out-dir'], configPath);
  const store: RunStore =
    args.store === false
      ? new MemoryRunStore()
      : new SqliteRunStore(
          typeof args.store === 'string' ? resolve(io.cwd, args.store) : join(outDir, 'history.sqlite'),
        );
  let jobs: RunJob[];
  try {
    if (args.resume) jobs = [resumeJob(store, resolveRunRef(store, args.resume))];
    else {
      // as in compare: a --set system.params.<key> the system never receives, or a key the builtin
      // engine's mode never reads, is a typo, not a variant
      if (Object.keys(overrides).length)
        for (const name of names)
          checkVariantEffects([{ label: '--set', overrides }], 'variants', config.suites[name]!, root);
      jobs = suiteJobs(
        names,
        config.suites,
        { config: overrides, replays: args.replays, concurrency: args.concurrency, seed: args.seed },
        () => {
          const started = new Date();
          return { runId: newRunId(started), startedAt: started.toISOString() };
        },
      );
    }
    // the HTML report charts the suite's stored runs: one that does not read back would end the run
    // after its last request, with no verdict, so it is read now (nothing stored yet)
    if (!shard)
      preflightJobs(jobs, {
        root,
        store,
        ...(baseline ? { baseline } : {}),
        readAhead: (job) => readHistoryAhead(store, job.name, job.resume ? job.runId : undefined),
        locate: (job, e) => locateSuiteError(loaded, job.name, e),
      });
  } catch (e) {
    store.close();
    throw e;
  }

  const interrupt = watchInterrupts(io, graceMs);
  // the run being replayed: a second signal exits at once, and the store is told it was interrupted
  let replaying: string | undefined;
  interrupt.onForcedExit(() => {
    if (replaying && store.getRun(replaying)?.status === 'running') {
      store.finishRun(replaying, {
        status: 'interrupted',
        finished_at: new Date().toISOString(),
        metrics: [],
      });
    }
  });
  const timings = stageTimingsFromEnv(io);
  // the suites whose uploaded run the server's vs_base rules failed: exit 1, as a local FAIL
  const vsBaseFails: string[] = [];
  const finishing = { args, io, store, outDir, names, configPath, uploadTarget, timings, vsBaseFails };
  let ran: RunJobsResult;
  try {
    if (shard) return await runOneShard(jobs[0]!, shard, { args, io, root, outDir, interrupt });
    ran = await runJobs(jobs, {
      root,
      store,
      now: () => performance.now(),
      progress: stderrProgress,
      signal: interrupt.stop,
      abandon: interrupt.abandon,
      stopped: () => interrupt.came(),
      ...(baseline ? { baseline } : {}),
      // where in the project's history these runs are made: stored with each, uploaded as recorded
      ...gitField(io.cwd, io.env),
      ...(timings ? { timer: timings.timer } : {}),
      rgateVersion: rgateVersion(),
      replaying: (id) => (replaying = id),
      finished: (job, outcome) => finishedRun(job, outcome, finishing),
    });
  } finally {
    // a signal that came in the last synchronous stretch is seen here, and still counts
    await interrupt.dispose();
    store.close();
  }
  const { reports, notRun } = ran;
  const interrupted = ran.interrupted.map((x) => x.job.name);
  const systemDown = ran.down.length > 0;
  if (notRun.length) {
    io.err(`rgate: not run (interrupted before they started): ${notRun.join(', ')}`);
  }
  if (args.json) {
    const doc = jsonReports(reports, args.resume !== undefined || args.suites?.length === 1);
    if (doc !== undefined) io.out(doc);
  }
  // a system that answered nothing is not a gate verdict on it: exit 3, as documented; an
  // interrupted invocation (a cancelled CI job) is no verdict at all: 130 or 143, whatever ran
  const local = runExitCode(ran, interrupt.exitCode);
  const code = local === EXIT.ok && vsBaseFails.length > 0 ? EXIT.gateFail : local;
  // the last line says it all (stderr under --json, whose stdout is the reports)
  const overall = renderOverall(reports, {
    color: io.color,
    exitCode: code,
    systemDown,
    vsBaseFailed: vsBaseFails,
    ...(interrupt.by ? { interrupted: { by: interrupt.by, suites: interrupted, notRun } } : {}),
  });
  if (args.json) io.err(overall);
  else io.out(overall);
  return code;
}

/**
 * `--json`'s shape follows the command line, never the config: one suite named (or one run resumed)
 * prints its report object; the default suites or several named print an array, even of one report,
 * so a script's `.gate.cause` (or `.[].gate.cause`) keeps working when default_suites grows. One
 * suite interrupted before it started has no report: nothing on stdout (the exit code says 130/143).
 */
function jsonReports(reports: readonly Report[], oneNamed: boolean): string | undefined {
  if (oneNamed) return reports.length ? renderJson(reports[0]!) : undefined;
  return JSON.stringify(reports.map((r) => JSON.parse(renderJson(r)) as unknown));
}

/** One finished run, at the edge: its reports written, its TREC run, terminal summary and upload, what went wrong said. */
async function finishedRun(
  job: RunJob,
  outcome: RunOutcome,
  c: {
    args: RunArgs;
    io: CliIo;
    store: RunStore;
    outDir: string;
    names: readonly string[];
    configPath: string;
    uploadTarget: ReturnType<typeof uploadTargetOf> | undefined;
    timings: ReturnType<typeof stageTimingsFromEnv>;
    /** the suites whose upload the server's vs_base rules failed (this run's is added) */
    vsBaseFails: string[];
  },
): Promise<void> {
  const { args, io, store, outDir, names, configPath, uploadTarget, timings } = c;
  const { report } = outcome;
  const runDir = timeStage(timings?.timer, 'render', () => writeRunReports(outDir, store, job.runId, report));
  if (args['trec-run']) {
    const file = resolve(io.cwd, names.length > 1 ? `${args['trec-run']}.${job.name}` : args['trec-run']);
    writeTrecRun(file, outcome.observations, job.name);
    io.err(`rgate: wrote TREC run ${relative(io.cwd, file) || file}`);
  }
  if (!args.json) {
    io.out(
      timeStage(timings?.timer, 'render', () =>
        renderTerminal(report, { color: io.color, width: terminalWidth(io) }),
      ),
    );
    io.out(`reports: ${relative(io.cwd, runDir) || runDir}/report.{json,html,md,xml}`);
  }
  if (uploadTarget && !outcome.interrupted) {
    const sent = await uploadStoredRun(io, store, job.runId, uploadTarget, outDir, {
      retries: args.retries,
      json: args.json,
    });
    if (vsBaseFailed(sent)) c.vsBaseFails.push(job.name);
  }
  timings?.flush(job.name);
  if (outcome.system_down)
    for (const line of systemDownLines(job.name, outcome.system_down, job.spec.system, configPath))
      io.err(line);
  if (outcome.interrupted) {
    const planned = outcome.suite.queries.length * report.settings.replays;
    const made = `${outcome.observations.length} of ${planned} planned requests made`;
    if (args.store === false) {
      io.err(`rgate: run ${job.runId} interrupted: ${made} (--no-store: not kept, nothing to resume)`);
    } else {
      io.err(`rgate: run ${job.runId} interrupted: ${made}, kept in ${store.location}`);
      io.err(`rgate: to finish it: rgate run --resume ${job.runId}`);
    }
  }
}

/** `--shard i/n`: run the job's slice and write its shard file; rgate merge makes the run of them. */
async function runOneShard(
  job: RunJob,
  shard: Shard,
  c: { args: RunArgs; io: CliIo; root: string; outDir: string; interrupt: Interrupt },
): Promise<number> {
  const { args, io, interrupt } = c;
  const file = await runShard({
    name: job.name,
    spec: job.spec,
    root: c.root,
    shard,
    now: () => performance.now(),
    progress: stderrProgress(),
    signal: interrupt.stop,
    abandon: interrupt.abandon,
    ...jobSettings(job),
  });
  const out = args['shard-out']
    ? resolve(io.cwd, args['shard-out'])
    : join(c.outDir, 'shards', `${job.name}-${shard.index}of${shard.count}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(file) + '\n');
  io.out(
    `shard ${shard.index}/${shard.count} of ${job.name}: ${file.observations.length} observations -> ${relative(io.cwd, out) || out}`,
  );
  if (interrupt.stop.aborted) {
    io.err(
      `rgate: shard ${shard.index}/${shard.count} interrupted: its file is incomplete and rgate merge refuses it; run this shard again`,
    );
    return interrupt.exitCode!;
  }
  io.out(`next: rgate merge <every shard file of this run>`);
  return file.observations.length > 0 && file.observations.every((o) => !o.ok) ? EXIT.internal : EXIT.ok;
}

/** Progress on stderr: one rewritten line on a terminal, a line per step otherwise. */
function stderrProgress() {
  return createProgress({
    write: (s) => process.stderr.write(s),
    tty: Boolean(process.stderr.isTTY),
    now: () => performance.now(),
  });
}
