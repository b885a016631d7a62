import type { Argv } from 'yargs';
import { RgateError } from '../../core/errors.js';
import type { RunStore } from '../../store/index.js';
import { planEvidence, type PlannedRun } from '../../../history/plan.js';
import type { CliIo, RgateCommand } from '../command.js';
import { openStore, withStoreOptions, type StoreArgs } from './history.js';
import { loadReport } from './diff.js';

interface PlanArgs extends StoreArgs {
  suite: string;
  measure: string;
  effect: number;
  rate?: number;
  run?: string;
  baseline?: string;
  power?: number;
  alpha?: number;
  json?: boolean;
}

/** The run to plan from: --run (an id, a prefix or a report.json), else the suite's newest complete run. */
function plannedRun(io: CliIo, ref: string | undefined, suite: string, store: () => RunStore): PlannedRun {
  if (ref !== undefined) {
    const report = loadReport(io, ref, store);
    return { report, run_id: report.environment.run_id };
  }
  const s = store();
  const newest = s.listRuns({ suite, status: 'complete', limit: 1 })[0];
  if (!newest)
    throw new RgateError(
      'usage',
      `no complete run of suite ${suite} in ${s.location}`,
      `run it first: rgate run ${suite}`,
    );
  return { report: loadReport(io, newest.run_id, store), run_id: newest.run_id };
}

export const planCommand: RgateCommand<PlanArgs> = {
  command: 'plan <suite>',
  describe: "How many queries a measure needs to detect a change, from a stored run's own figures",
  builder: (y: Argv) =>
    withStoreOptions(y)
      .positional('suite', { type: 'string', describe: 'the suite whose newest complete run is read' })
      .option('measure', {
        type: 'string',
        demandOption: true,
        describe: 'the measure, e.g. top1_useful_rate or ndcg_cut.5',
      })
      .option('effect', {
        type: 'number',
        demandOption: true,
        describe: "the change to detect, in the measure's units (a rate's as a fraction: 0.05 is 5 points)",
      })
      .option('rate', {
        type: 'number',
        describe: 'a rate measure: plan at this rate instead of the observed one (e.g. the gate threshold)',
      })
      .option('run', {
        type: 'string',
        describe: 'the run to read (id, prefix or report.json; default the newest complete run)',
      })
      .option('baseline', {
        type: 'string',
        describe:
          'a second run (id or report.json): plan for per-query differences between the two (two-sided)',
      })
      .option('power', { type: 'number', describe: 'the power to reach (default 0.8)' })
      .option('alpha', { type: 'number', describe: "the test's level (default 0.05)" })
      .option('json', {
        type: 'boolean',
        describe: 'print the plan as JSON (schemas/plan-result.schema.json)',
      })
      .example(
        '$0 plan semantic --measure top1_useful_rate --effect 0.05',
        'queries to see a 5-point drop of the top-1 rate',
      )
      .example(
        '$0 plan semantic --measure top1_useful_rate --effect 0.05 --rate 0.8',
        'the same, for a system at the 80% bar',
      )
      .example(
        '$0 plan semantic --measure ndcg_cut.5 --effect 0.02 --baseline <run-id>',
        'queries to tell a baseline and a candidate apart by 0.02',
      ),
  handler: async (args, io) => {
    for (const [flag, v, lo, hi] of [
      ['--power', args.power, 0, 1],
      ['--alpha', args.alpha, 0, 0.5],
    ] as const) {
      if (v !== undefined && !(v > lo && v < hi))
        throw new RgateError(
          'usage',
          `${flag} ${v}: must be between ${lo} and ${hi}`,
          `e.g. ${flag} ${flag === '--power' ? 0.8 : 0.05}`,
        );
    }
    let store: RunStore | undefined;
    const getStore = () => (store ??= openStore(io, args));
    try {
      const run = plannedRun(io, args.run, args.suite, getStore);
      const baseline = args.baseline ? plannedRun(io, args.baseline, args.suite, getStore) : undefined;
      const plan = planEvidence(
        run,
        {
          measure: args.measure,
          effect: args.effect,
          ...(args.rate !== undefined ? { rate: args.rate } : {}),
          ...(args.power !== undefined ? { power: args.power } : {}),
          ...(args.alpha !== undefined ? { alpha: args.alpha } : {}),
        },
        baseline,
      );
      io.out(args.json ? JSON.stringify(plan, null, 2) : plan.summary);
      return 0;
    } finally {
      store?.close();
    }
  },
};
