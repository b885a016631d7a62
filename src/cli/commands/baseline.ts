import { resolveRunRef } from '../run-ref.js';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import { setSuiteBaseline, showBaseline } from '../../../history/baseline.js';
import { renderBaselineTerminal } from '../../../reports/history/trends.js';
import type { CliIo, RgateCommand } from '../command.js';
import { terminalWidth } from '../io.js';
import type { RunStore } from '../../store/types.js';
import type { UploadTarget } from '../upload-client.js';
import { outDirOf } from '../out-dir.js';
import { sendBaseline } from '../upload-client.js';
import { uploadStoredRun, uploadTargetOf, withUploadFlags, type UploadFlags } from '../upload-flags.js';
import { openStore, withStoreOptions, type StoreArgs } from './history.js';

interface BaselineArgs extends StoreArgs, UploadFlags {
  upload?: string;
  action: 'set' | 'show';
  suite: string;
  run?: string;
  note?: string;
  json?: boolean;
}

export const baselineCommand: RgateCommand<BaselineArgs> = {
  command: 'baseline <action> <suite> [run]',
  describe: "Set or show a suite's baseline run (what vs_baseline gate rules compare against)",
  builder: (y: Argv) =>
    withUploadFlags(withStoreOptions(y))
      .positional('action', {
        choices: ['set', 'show'] as const,
        describe: 'set: point the baseline at a run; show: print it',
      })
      .positional('suite', { type: 'string', describe: 'suite name' })
      .positional('run', {
        type: 'string',
        describe: "set: the run id (default: the suite's newest complete run)",
      })
      .option('note', {
        type: 'string',
        describe: 'set: why this run is the baseline (shown in reports and the closeout)',
      })
      .option('json', { type: 'boolean', describe: 'show: print as JSON' })
      .option('upload', {
        type: 'string',
        describe:
          'set: also set it on this rgate server (with --project; token from --token-env), uploading the run first if the server lacks it; the trend pages mark it',
      })
      .example(
        '$0 baseline set context-load --note "Gate C frozen baseline, uniform weighting"',
        'the newest complete run',
      )
      .example('$0 baseline set context-load 20261120T020000Z-1a2b3c', 'a given run')
      .example(
        '$0 baseline set context-load 20261120T020000Z-1a2b3c --upload https://rgate.example.org --project search',
        "here and on the team's server (token in RGATE_SERVER_TOKEN)",
      )
      .example('$0 baseline show context-load', 'which run, its note, pinned ids and measures'),
  handler: async (args, io) => {
    if (args.action === 'show' && (args.run !== undefined || args.note !== undefined)) {
      throw new RgateError(
        'usage',
        'baseline show takes only a suite',
        'to change it: rgate baseline set <suite> [run-id] --note "..."',
      );
    }
    if (args.action === 'show' && args.upload !== undefined) {
      throw new RgateError(
        'usage',
        'baseline show reads the local history: --upload is for baseline set',
        "the server's baseline is on the suite's page: <server>/p/<project>/suites/<suite>",
      );
    }
    const target = args.upload !== undefined ? uploadTargetOf(args.upload, args, io, '--upload') : undefined;
    const store = openStore(io, args);
    try {
      if (args.action === 'set') {
        const row = setSuiteBaseline(
          store,
          args.suite,
          args.run === undefined ? undefined : resolveRunRef(store, args.run),
          args.note,
        );
        io.out(
          `baseline of suite ${args.suite}: run ${row.run_id} (${row.verdict ?? 'no verdict'}, started ${row.started_at})`,
        );
        if (!target) return EXIT.ok;
        return await setOnServer(io, store, target, args, row.run_id);
      }
      const info = showBaseline(store, args.suite);
      io.out(
        args.json
          ? JSON.stringify(info, null, 2)
          : renderBaselineTerminal(info, { color: io.color, width: terminalWidth(io) }).replace(/\n$/, ''),
      );
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};

/**
 * The server's baseline, after the local one: the run goes up first (idempotent: a run already there
 * is left as it is), then the baseline. Not kept as pending when the server cannot take it: a baseline
 * is a decision a person makes and repeats, not a run's data that would be lost.
 */
async function setOnServer(
  io: CliIo,
  store: RunStore,
  target: UploadTarget,
  args: BaselineArgs,
  runId: string,
): Promise<number> {
  const retries = args.retries === undefined ? {} : { retries: args.retries };
  const outDir = outDirOf(io, args['out-dir'], args.config);
  const sent = await uploadStoredRun(io, store, runId, target, outDir, { ...retries, json: true });
  const again = `the local baseline is set; run this command again once the server can take it`;
  if (sent.kind === 'unreachable' || sent.kind === 'refused') {
    io.err(`rgate: error: the baseline was not set on ${target.server}: ${again}`);
    return sent.kind === 'refused' ? EXIT.usage : EXIT.internal;
  }
  const outcome = await sendBaseline(
    target,
    args.suite,
    { run_id: runId, ...(args.note !== undefined ? { note: args.note } : {}) },
    retries,
  );
  if (outcome.kind === 'set') {
    io.out(`baseline of suite ${args.suite} on ${target.server}: run ${runId}: ${outcome.url}`);
    return EXIT.ok;
  }
  io.err(
    `rgate: error: ${target.server} ${outcome.kind === 'refused' ? 'refused' : 'could not take'} the baseline (${outcome.reason}): ${again}`,
  );
  return outcome.kind === 'refused' ? EXIT.usage : EXIT.internal;
}
