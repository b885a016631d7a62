import { dirname, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { validateOrThrow } from '../../contracts/ajv.js';
import { validateShardFile } from '../../contracts/shard-file.js';
import { EXIT, RgateError } from '../../core/errors.js';
import { readJsonFile } from '../../core/jsonl.js';
import type { Report, ShardFile, StoredPlan } from '../../documents/index.js';
import { thisProcess } from '../../store/run-owner.js';
import { SqliteRunStore } from '../../store/index.js';
import { loadRgateConfig } from '../../systems/rgate-config.js';
import { buildRunReport, inReportOrder } from '../../../harness/run-report.js';
import { planRun, plannedRequests } from '../../../harness/run-plan.js';
import { combineShards, mergeContentKey } from '../../../harness/shard.js';
import { asReport } from '../../../history/trends.js';
import { readHistoryAhead } from '../../../history/trends-up-to.js';
import { renderJson, renderTerminal } from '../../../reports/index.js';
import { renderOverall } from '../../../reports/run/overall.js';
import type { RgateCommand } from '../command.js';
import { OUT_DIR_HELP, outDirOf, storePathOf } from '../out-dir.js';
import { writeRunReports } from '../run-reports.js';
import { gitField } from '../git-ref.js';
import { uploadStoredRun, uploadTargetOf, withUploadFlags } from '../upload-flags.js';
import { newRunId, rgateVersion } from '../run-context.js';
import { terminalWidth } from '../io.js';

interface MergeArgs {
  files: string[];
  config?: string;
  'out-dir'?: string;
  store?: string;
  json?: boolean;
  upload?: string;
  project?: string;
  'token-env'?: string;
  retries?: number;
}

/** `rgate merge <shard files>`: the shards of a CI matrix become one run, reported and stored as if run at once. */
export const mergeCommand: RgateCommand<MergeArgs> = {
  command: 'merge <files..>',
  describe:
    'Combine the shard files of one run (rgate run --shard i/n) into one run: report, history, verdict',
  builder: (y: Argv) =>
    withUploadFlags(y)
      .option('upload', {
        type: 'string',
        describe:
          'then upload the merged run to this rgate server (with --project); a re-merge uploads the same run',
      })
      .positional('files', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'every shard file of the run',
      })
      .option('config', {
        type: 'string',
        describe: 'path to rgate.config.json (default: found from the cwd upward)',
      })
      .option('out-dir', { type: 'string', describe: OUT_DIR_HELP })
      .option('store', { type: 'string', describe: 'run history file (default <out-dir>/history.sqlite)' })
      .option('json', {
        type: 'boolean',
        describe: "print the run's JSON report (an object) on stdout; the verdict line goes to stderr",
      })
      .example('$0 merge shards/semantic-*.json', 'after a 3-way matrix of `rgate run semantic --shard i/3`')
      .example('$0 merge a.json b.json --out-dir .rgate --json', 'print the merged report as JSON')
      .example(
        '$0 merge shards/*.json --upload https://rgate.example.org --project search',
        'merge, then upload',
      ),
  async handler(args, io) {
    /**
     * The merged run's verdict and exit code, last, in the words `rgate run` ends with: a CI log's
     * tail names the verdict whichever command made the run (stderr under --json, as in run).
     */
    const finish = (report: Report): number => {
      const code = report.gate.verdict === 'FAIL' ? EXIT.gateFail : EXIT.ok;
      const overall = renderOverall([report], { color: io.color, exitCode: code });
      if (args.json) io.err(overall);
      else io.out(overall);
      return code;
    };
    const uploadTarget =
      args.upload !== undefined ? uploadTargetOf(args.upload, args, io, '--upload') : undefined;
    const upload = async (store: SqliteRunStore, runId: string): Promise<void> => {
      if (!uploadTarget) return;
      const outDir = outDirOf(io, args['out-dir'], loaded?.path);
      await uploadStoredRun(io, store, runId, uploadTarget, outDir, {
        retries: args.retries,
        json: args.json,
      });
    };
    const labels = args.files.map((f) => relative(io.cwd, resolve(io.cwd, f)) || f);
    const shards = args.files.map(
      (f, i) =>
        validateOrThrow(validateShardFile, readJsonFile(resolve(io.cwd, f)), {
          file: labels[i]!,
        }) as ShardFile,
    );
    const { first, observations } = combineShards(shards, labels);
    const loaded = loadRgateConfig(io.cwd, args.config);
    if (!loaded) throw new RgateError('usage', 'no rgate.config.json found in this folder or above it');
    const store = new SqliteRunStore(storePathOf(io, { ...args, config: loaded.path }));
    try {
      const plan = planRun({
        name: first.suite,
        spec: first.spec,
        root: dirname(loaded.path),
        store,
        replays: first.settings.replays,
        concurrency: first.settings.concurrency,
        seed: first.settings.seed,
        config: first.overrides,
      });
      if (JSON.stringify(plan.artifacts) !== JSON.stringify(first.artifacts)) {
        throw new RgateError(
          'freeze_violation',
          `the shards ran on ${first.artifacts.corpus_id}, ${first.artifacts.query_set_id}, ${first.artifacts.config_id}; the suite's snapshots here are ${plan.artifacts.corpus_id}, ${plan.artifacts.query_set_id}, ${plan.artifacts.config_id}`,
          'merge on the same commit the shards ran on',
        );
      }
      const planned = plannedRequests(plan);
      if (observations.length !== planned) {
        throw new RgateError(
          'input_invalid',
          `the shards hold ${observations.length} of the run's ${planned} requests: a shard was interrupted`,
          'rerun the incomplete shard, then merge again',
        );
      }
      const contentKey = mergeContentKey(first, observations);
      const existing = store.findRunByContentKey(contentKey);
      // as in rgate run: the HTML report charts the suite's stored runs, and one that does not read
      // back would fail the merge after its run was stored, so it is read now (nothing stored yet)
      readHistoryAhead(store, first.suite, existing?.run_id);
      const kept = existing?.status === 'complete' ? asReport(store.getReport(existing.run_id)) : undefined;
      if (existing && kept) {
        // the same shards again (a retried CI job): the run they made is the answer, not a second one
        const runDir = writeRunReports(
          outDirOf(io, args['out-dir'], loaded.path),
          store,
          existing.run_id,
          kept,
        );
        if (args.json) io.out(renderJson(kept));
        else {
          io.out(renderTerminal(kept, { color: io.color, width: terminalWidth(io) }));
          io.out(
            `these ${shards.length} shards were merged before: run ${existing.run_id} (nothing new stored)`,
          );
          io.out(`reports: ${relative(io.cwd, runDir) || runDir}/report.{json,html,md,xml}`);
        }
        await upload(store, existing.run_id);
        return finish(kept);
      }
      const started = new Date();
      // a merge of these shards that did not finish (killed) is finished now, under its own id
      const runId = existing?.run_id ?? newRunId(started);
      const stored: StoredPlan = { spec: first.spec, overrides: first.overrides, system: first.system };
      if (existing) store.resumeRun(runId, thisProcess());
      else {
        store.beginRun({
          run_id: runId,
          suite: first.suite,
          started_at: started.toISOString(),
          artifacts: plan.artifacts,
          settings: plan.settings,
          plan: stored,
          owner: thisProcess(),
          content_key: contentKey,
          ...gitField(io.cwd, io.env),
        });
      }
      for (const o of observations) store.addObservation(runId, o);
      const report = buildRunReport(plan, inReportOrder(store.getObservations(runId)), {
        runId,
        startedAt: started.toISOString(),
        rgateVersion: rgateVersion(),
        system: first.system,
        wallMs: 0,
      });
      store.finishRun(runId, {
        status: 'complete',
        finished_at: new Date().toISOString(),
        gate_id: report.gate.gate_id,
        verdict: report.gate.verdict,
        metrics: report.metrics,
        report,
      });
      const runDir = writeRunReports(outDirOf(io, args['out-dir'], loaded.path), store, runId, report);
      if (args.json) io.out(renderJson(report));
      else {
        io.out(renderTerminal(report, { color: io.color, width: terminalWidth(io) }));
        io.out(`merged ${shards.length} shards into run ${runId}`);
        io.out(`reports: ${relative(io.cwd, runDir) || runDir}/report.{json,html,md,xml}`);
      }
      await upload(store, runId);
      return finish(report);
    } finally {
      store.close();
    }
  },
};
