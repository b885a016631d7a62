import { resolveRunRef } from '../run-ref.js';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import { setSuiteBaseline, showBaseline } from '../../../history/baseline.js';
import { renderBaselineTerminal } from '../../../reports/history/trends.js';
import type { RgateCommand } from '../command.js';
import { terminalWidth } from '../io.js';
import { openStore, withStoreOptions, type StoreArgs } from './history.js';

interface BaselineArgs extends StoreArgs {
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
    withStoreOptions(y)
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
      .example(
        '$0 baseline set context-load --note "Gate C frozen baseline, uniform weighting"',
        'the newest complete run',
      )
      .example('$0 baseline set context-load 20261120T020000Z-1a2b3c', 'a given run')
      .example('$0 baseline show context-load', 'which run, its note, pinned ids and measures'),
  handler: async (args, io) => {
    if (args.action === 'show' && (args.run !== undefined || args.note !== undefined)) {
      throw new RgateError(
        'usage',
        'baseline show takes only a suite',
        'to change it: rgate baseline set <suite> [run-id] --note "..."',
      );
    }
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
        return EXIT.ok;
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
