import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import type { Report, Verdict } from '../../documents/index.js';
import { MemoryRunStore, SqliteRunStore, type RunStore } from '../../store/index.js';
import { loadRgateConfig } from '../../systems/rgate-config.js';
import { runSuite } from '../../../harness/run-suite.js';
import { createProgress } from '../../../harness/progress.js';
import { historyUpToRun } from '../../../history/trends-up-to.js';
import {
  renderHtml,
  renderJson,
  renderJunit,
  renderMarkdown,
  renderTerminal,
} from '../../../reports/index.js';
import { outDirOf } from '../out-dir.js';
import type { CliIo, RgateCommand } from '../command.js';
import { newRunId, PACKAGE_ROOT, rgateVersion } from '../run-context.js';
import { parseSetFlags } from '../set-flags.js';
import { baselineFromReportFile } from '../baseline-input.js';
import { writeTrecRun } from '../trec-run-file.js';

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
}

export const runCommand: RgateCommand<RunArgs> = {
  command: 'run [suites..]',
  describe: 'Replay the suites against their systems, measure, gate and write reports',
  builder: (y: Argv) =>
    y
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
        describe: 'print the JSON report(s) on stdout instead of the summary',
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
        '$0 run semantic --set weighting_mode=evidence_outcome_bias --json',
        'a variant, report as JSON',
      ),
  handler: async (args, io) => runHandler(args, io),
};

async function runHandler(args: RunArgs, io: CliIo): Promise<number> {
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
      `create one (see README "Systems under test"), or pass --config ${join(PACKAGE_ROOT, 'rgate.config.json')}`,
    );
  }
  const { config, path: configPath } = loaded;
  const root = dirname(configPath);
  const names = args.suites?.length
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
  const outDir = outDirOf(io, args['out-dir'], configPath);
  const store: RunStore =
    args.store === false
      ? new MemoryRunStore()
      : new SqliteRunStore(
          typeof args.store === 'string' ? resolve(io.cwd, args.store) : join(outDir, 'history.sqlite'),
        );
  const overrides = parseSetFlags(args.set ?? []);
  const baseline = args.baseline ? baselineFromReportFile(resolve(io.cwd, args.baseline)) : undefined;

  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) return;
    io.err('\nrgate: interrupted: finishing requests in flight, keeping every observation made so far');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const verdicts: Verdict[] = [];
  const reports: Report[] = [];
  let systemDown = false;
  try {
    for (const name of names) {
      const spec = config.suites[name]!;
      const started = new Date();
      const runId = newRunId(started);
      const outcome = await runSuite({
        name,
        spec,
        root,
        store,
        runId,
        startedAt: started.toISOString(),
        now: () => performance.now(),
        progress: createProgress({
          write: (s) => process.stderr.write(s),
          tty: Boolean(process.stderr.isTTY),
          now: () => performance.now(),
        }),
        signal: controller.signal,
        ...(args.replays !== undefined ? { replays: args.replays } : {}),
        ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
        ...(args.seed !== undefined ? { seed: args.seed } : {}),
        ...(Object.keys(overrides).length ? { config: overrides } : {}),
        ...(baseline ? { baseline } : {}),
        rgateVersion: rgateVersion(),
      });
      const report = outcome.report;
      const runDir = join(outDir, 'runs', runId);
      mkdirSync(runDir, { recursive: true });
      writeFileSync(join(runDir, 'report.json'), renderJson(report));
      // after finishRun: the history ends with this run; later runs of other processes are left out
      writeFileSync(
        join(runDir, 'report.html'),
        renderHtml(report, { history: historyUpToRun(store, runId) }),
      );
      writeFileSync(join(runDir, 'report.md'), renderMarkdown(report));
      writeFileSync(join(runDir, 'report.xml'), renderJunit(report));
      if (args['trec-run']) {
        const file = resolve(io.cwd, names.length > 1 ? `${args['trec-run']}.${name}` : args['trec-run']);
        writeTrecRun(file, outcome.observations, name);
        io.err(`rgate: wrote TREC run ${relative(io.cwd, file) || file}`);
      }
      if (!args.json) {
        io.out(renderTerminal(report, { color: io.color }));
        io.out(`reports: ${relative(io.cwd, runDir) || runDir}/report.{json,html,md,xml}`);
      }
      reports.push(report);
      verdicts.push(report.gate.verdict);
      if (outcome.system_down) {
        const d = outcome.system_down;
        io.err(
          `rgate: suite ${name}: the system under test is down: ${d.failed_requests} of ${d.planned_requests} requests failed and none succeeded, so the run stopped (first error: ${d.first_error.kind}: ${d.first_error.message})`,
        );
        systemDown = true;
      }
      if (outcome.interrupted) {
        io.err(
          `rgate: run ${runId} interrupted: ${outcome.observations.length} observations kept in ${store.location}`,
        );
        if (args.json) io.out(JSON.stringify(reports, null, 2));
        return 130;
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    store.close();
  }
  if (args.json)
    io.out(
      reports.length === 1
        ? renderJson(reports[0]!)
        : JSON.stringify(reports.map((r) => JSON.parse(renderJson(r)))),
    );
  // a system that answered nothing is not a gate verdict on it: exit 3, as documented
  if (systemDown) return EXIT.internal;
  return verdicts.includes('FAIL') ? EXIT.gateFail : EXIT.ok;
}
