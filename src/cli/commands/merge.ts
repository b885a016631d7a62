import { dirname, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { validateOrThrow } from '../../contracts/ajv.js';
import { validateShardFile } from '../../contracts/shard-file.js';
import { EXIT, RgateError } from '../../core/errors.js';
import { readJsonFile } from '../../core/jsonl.js';
import type { Report, ShardFile } from '../../documents/index.js';
import { SqliteRunStore } from '../../store/index.js';
import { loadRgateConfig } from '../../systems/rgate-config.js';
import { mergeShards } from '../../../harness/merge-shards.js';
import { readHistoryAhead } from '../../../history/trends-up-to.js';
import { renderJson, renderTerminal } from '../../../reports/index.js';
import { renderOverall } from '../../../reports/run/overall.js';
import type { RgateCommand } from '../command.js';
import { OUT_DIR_HELP, outDirOf, storePathOf } from '../out-dir.js';
import { writeRunReports } from '../run-reports.js';
import { gitField } from '../git-ref.js';
import { uploadStoredRun, uploadTargetOf, vsBaseFailed, withUploadFlags } from '../upload-flags.js';
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
    const finish = (report: Report, vsBaseFail: boolean): number => {
      const code = report.gate.verdict === 'FAIL' || vsBaseFail ? EXIT.gateFail : EXIT.ok;
      const overall = renderOverall([report], {
        color: io.color,
        exitCode: code,
        vsBaseFailed: vsBaseFail ? [report.suite] : [],
      });
      if (args.json) io.err(overall);
      else io.out(overall);
      return code;
    };
    const uploadTarget =
      args.upload !== undefined ? uploadTargetOf(args.upload, args, io, '--upload') : undefined;
    /** upload the merged run; true when the server's vs_base rules failed it */
    const upload = async (store: SqliteRunStore, runId: string): Promise<boolean> => {
      if (!uploadTarget) return false;
      const outDir = outDirOf(io, args['out-dir'], loaded?.path);
      const sent = await uploadStoredRun(io, store, runId, uploadTarget, outDir, {
        retries: args.retries,
        json: args.json,
      });
      return vsBaseFailed(sent);
    };
    const labels = args.files.map((f) => relative(io.cwd, resolve(io.cwd, f)) || f);
    const shards = args.files.map(
      (f, i) =>
        validateOrThrow(validateShardFile, readJsonFile(resolve(io.cwd, f)), {
          file: labels[i]!,
        }) as ShardFile,
    );
    const loaded = loadRgateConfig(io.cwd, args.config);
    if (!loaded) throw new RgateError('usage', 'no rgate.config.json found in this folder or above it');
    const store = new SqliteRunStore(storePathOf(io, { ...args, config: loaded.path }));
    try {
      const merged = mergeShards({
        shards,
        labels,
        root: dirname(loaded.path),
        store,
        newRun: () => {
          const started = new Date();
          return { runId: newRunId(started), startedAt: started.toISOString() };
        },
        finishedAt: () => new Date().toISOString(),
        ...gitField(io.cwd, io.env),
        rgateVersion: rgateVersion(),
        // as in rgate run: the HTML report charts the suite's stored runs, and one that does not read
        // back would fail the merge after its run was stored, so it is read now (nothing stored yet)
        beforeStore: (suite, existing) => readHistoryAhead(store, suite, existing),
      });
      const { runId, report } = merged;
      const runDir = writeRunReports(outDirOf(io, args['out-dir'], loaded.path), store, runId, report);
      if (args.json) io.out(renderJson(report));
      else {
        io.out(renderTerminal(report, { color: io.color, width: terminalWidth(io) }));
        io.out(
          merged.again
            ? `these ${shards.length} shards were merged before: run ${runId} (nothing new stored)`
            : `merged ${shards.length} shards into run ${runId}`,
        );
        io.out(`reports: ${relative(io.cwd, runDir) || runDir}/report.{json,html,md,xml}`);
      }
      return finish(report, await upload(store, runId));
    } finally {
      store.close();
    }
  },
};
