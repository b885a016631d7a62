import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import type { CompareSession, CompareSessionList, PartialConfig } from '../../documents/index.js';
import { loadSession, runCompare, saveSession } from '../../../history/compare.js';
import {
  parseSweep,
  splitVariantFlag,
  sweepVariants,
  type VariantSpec,
} from '../../../history/compare-variants.js';
import { createProgress } from '../../../harness/progress.js';
import {
  renderSessionHtml,
  renderSessionJson,
  renderSessionMarkdown,
  renderSessionTerminal,
} from '../../../reports/history/compare.js';
import { painter, safe } from '../../../reports/history/shared.js';
import type { CliIo, RgateCommand } from '../command.js';
import { terminalWidth } from '../io.js';
import { newRunId, rgateVersion } from '../run-context.js';
import { checkSetting, parseSetFlags } from '../set-flags.js';
import { checkVariantEffects } from '../variant-effects.js';
import { loadSuiteSpec, openStore, withStoreOptions, type StoreArgs } from './history.js';
import { outDirOf } from '../out-dir.js';
import { interruptGraceMs, watchInterrupts } from '../interrupt.js';
import { MemoryRunStore } from '../../store/index.js';
import { gitField } from '../git-ref.js';
import { uploadCompareSession, uploadTargetOf, withUploadFlags, type UploadFlags } from '../upload-flags.js';

interface CompareArgs extends StoreArgs, UploadFlags {
  upload?: string;
  suite?: string;
  set?: string[];
  sweep?: string;
  config?: string;
  replays?: number;
  concurrency?: number;
  seed?: number;
  alpha: number;
  resamples: number;
  permutations: number;
  test: 'sign-flip' | 't';
  list?: boolean;
  show?: string;
  json?: boolean;
  format?: 'terminal' | 'json' | 'md' | 'html';
  save: boolean;
}

/** Each --set is one variant; several key=value pairs inside one --set (space separated) belong together. */
export function variantsFromFlags(
  sets: readonly string[],
  sweep: string | undefined,
): { variants: VariantSpec[]; kind: 'variants' | 'sweep' } {
  const parsed = sets.map((s) => {
    const pairs = splitVariantFlag(s);
    return { label: pairs.join(' '), overrides: parseSetFlags(pairs) as PartialConfig };
  });
  if (sweep === undefined) return { variants: parsed, kind: 'variants' };
  if (parsed.length > 1) {
    throw new RgateError(
      'usage',
      '--sweep takes at most one --set (applied to every grid point)',
      'for example --sweep bm25.k1=0.6:1.2:0.2 --set weighting_mode=uniform',
    );
  }
  const base = parsed[0];
  const grid = parseSweep(sweep);
  for (const v of grid.values) checkSetting(grid.key, v, `--sweep ${sweep}`);
  return {
    variants: sweepVariants(grid, base?.overrides ?? {}, base?.label ?? ''),
    kind: 'sweep',
  };
}

/**
 * `rgate compare --help`'s examples, as data so a test runs every one (test/compare-help-examples.test.ts):
 * each comparison must run on the project as shipped (or, for `memory`, the setup of docs/real-retrievers.md) and its
 * variants must differ somewhere.
 */
export const COMPARE_EXAMPLES: readonly (readonly [string, string])[] = [
  [
    'compare context-load --set weighting_mode=uniform --set weighting_mode=evidence_outcome_bias',
    'the two weighting modes',
  ],
  [
    'compare context-load --set system.mode=context-load --set system.mode=semantic',
    "the builtin engine's modes on one suite (system.mode, not mode: the suite's system fixes that)",
  ],
  [
    'compare semantic --sweep semantic.hybrid_confidence_min=0.8:1:.05',
    "a grid, each gate metric charted over it (the default method hybrid_rrf's confidence gate)",
  ],
  [
    'compare memory --set system.params.mode=classic --set system.params.mode=hybrid',
    'a command system\'s own setting: the "memory" suite of docs/real-retrievers.md (System parameters), its argv reads {params.mode}',
  ],
  [
    'compare context-load --set budgets.max_files=4 --set budgets.max_files=8 --upload https://rgate.example.org --project search',
    "CI: compare, then share the session page (token in RGATE_SERVER_TOKEN); the exit code stays the comparison's",
  ],
  [
    'compare cacm --set bm25.b=0.4 --set bm25.b=0.75 --test t',
    "Student's paired t-test instead of the sign-flip test: the p-values ranx's compare and scipy's ttest_rel give",
  ],
  ['compare --list', 'stored sessions'],
  ['compare --show cmp-20261122T071500Z-a1b2c3 --format md', 're-render one'],
];

function render(s: CompareSession, format: string, io: CliIo): string {
  switch (format) {
    case 'json':
      return renderSessionJson(s);
    case 'md':
      return renderSessionMarkdown(s);
    case 'html':
      return renderSessionHtml(s);
    default:
      return renderSessionTerminal(s, { color: io.color, width: terminalWidth(io) });
  }
}

export const compareCommand: RgateCommand<CompareArgs> = {
  command: 'compare [suite]',
  describe: 'Compare config variants on the same pinned snapshot with paired per-query statistics',
  builder: (y: Argv) =>
    withUploadFlags(withStoreOptions(y))
      .positional('suite', { type: 'string', describe: 'suite name from rgate.config.json' })
      .option('set', {
        type: 'string',
        array: true,
        describe:
          'one variant per --set: key=value, several pairs separated by spaces ("weighting_mode=uniform budgets.max_files=8")',
      })
      .option('sweep', {
        type: 'string',
        describe: 'a grid key=start:stop:step (stop inclusive), one variant per point',
      })
      .option('config', {
        type: 'string',
        describe: 'path to rgate.config.json (default: found from the cwd upward)',
      })
      .option('replays', {
        type: 'number',
        describe: "replays per query for every variant (default: the suite's)",
      })
      .option('concurrency', { type: 'number', describe: 'requests in flight' })
      .option('seed', {
        type: 'number',
        describe: 'seed of replay orders, bootstrap and randomization (same for every variant)',
      })
      .option('alpha', {
        type: 'number',
        default: 0.05,
        describe: 'significance level after Holm correction',
      })
      .option('resamples', {
        type: 'number',
        default: 2000,
        describe: 'bootstrap resamples (95% percentile interval, not adjusted for multiple tests)',
      })
      .option('permutations', {
        type: 'number',
        default: 10000,
        describe:
          'randomization test permutations, where the exact p cannot be counted (then p >= 1/(permutations+1), marked ~)',
      })
      .option('test', {
        choices: ['sign-flip', 't'] as const,
        default: 'sign-flip' as const,
        describe:
          "the paired test behind p: the sign-flip randomization test, or Student's paired t-test (scipy's ttest_rel, ranx's default)",
      })
      .option('list', {
        type: 'boolean',
        describe: 'list stored comparison sessions (of the suite, if given)',
      })
      .option('show', { type: 'string', describe: 're-render a stored session by id' })
      .option('json', { type: 'boolean', describe: 'print the session as JSON' })
      .option('format', {
        choices: ['terminal', 'json', 'md', 'html'] as const,
        describe: 'what to print (all are written to .rgate/compare/<id>/)',
      })
      .option('save', {
        type: 'boolean',
        default: true,
        describe: 'store the session and write its files (--no-save: print only)',
      })
      .option('upload', {
        type: 'string',
        describe:
          "then upload the variants' runs and the session to this rgate server (with --project; token from --token-env); prints the session's URL",
      })
      .example(COMPARE_EXAMPLES.map(([cmd, what]) => [`$0 ${cmd}`, what])),
  handler: async (args, io) => {
    const format = args.json ? 'json' : (args.format ?? 'terminal');
    if (args.list || args.show) return listOrShow(args, io, format);
    const suite = checkCompareArgs(args);
    const uploadTarget =
      args.upload !== undefined ? uploadTargetOf(args.upload, args, io, '--upload') : undefined;
    // the variants' runs, kept for the upload (a comparison stores only its session locally)
    const runs = uploadTarget ? new MemoryRunStore() : undefined;
    const graceMs = interruptGraceMs(io.env);
    const { variants, kind } = variantsFromFlags(args.set ?? [], args.sweep);
    const { spec, root } = loadSuiteSpec(io, suite, args.config);
    checkVariantEffects(variants, kind, spec, root);
    const created = new Date();
    const sessionId = `cmp-${newRunId(created)}`;
    // opened (and closed) before the first request, so a history that cannot be used (not SQLite,
    // from a newer rgate) stops the comparison before it spends, as rgate run does
    if (args.save) openStore(io, args, false).close();
    const interrupt = watchInterrupts(io, graceMs);
    let session: CompareSession;
    try {
      session = await runCompare({
        suite,
        spec,
        root,
        variants,
        kind,
        ...(kind === 'sweep' && args.sweep ? { sweep: parseSweep(args.sweep) } : {}),
        sessionId,
        ...(runs ? { store: runs } : {}),
        ...gitField(io.cwd, io.env),
        createdAt: created.toISOString(),
        alpha: args.alpha,
        resamples: args.resamples,
        permutations: args.permutations,
        test: args.test,
        ...(args.seed !== undefined ? { seed: args.seed } : {}),
        ...(args.replays !== undefined ? { replays: args.replays } : {}),
        ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
        now: () => performance.now(),
        progress: createProgress({
          write: (s) => process.stderr.write(s),
          tty: Boolean(process.stderr.isTTY),
          now: () => performance.now(),
        }),
        signal: interrupt.stop,
        abandon: interrupt.abandon,
        rgateVersion: rgateVersion(),
      });
    } catch (e) {
      // the comparison stopped at a variant: say so, and exit as an interrupted command does
      if (await interrupt.came()) {
        io.err(`rgate: ${(e as Error).message}`);
        return interrupt.exitCode!;
      }
      throw e;
    } finally {
      await interrupt.dispose();
    }
    if (args.save) saveCompareSession(args, io, session);
    io.out(render(session, format, io).replace(/\n$/, ''));
    if (uploadTarget && runs) {
      // the exit code stays the comparison's: a session the server could not take waits as pending
      await uploadCompareSession(
        io,
        runs,
        session,
        uploadTarget,
        outDirOf(io, args['out-dir'], args.config),
        {
          retries: args.retries,
          json: format === 'json',
        },
      );
    }
    // every variant ran before the signal was seen: the session stands, the exit code says it came
    return interrupt.exitCode ?? EXIT.ok;
  },
};

/** `--list` and `--show <id>`: the stored sessions, read only. */
function listOrShow(args: CompareArgs, io: CliIo, format: string): number {
  if (args.upload !== undefined)
    throw new RgateError(
      'usage',
      '--upload sends a comparison as it is run: not with --list or --show',
      'run the comparison with --upload',
    );
  const store = openStore(io, args);
  try {
    if (args.show) {
      io.out(render(loadSession(store, args.show), format, io).replace(/\n$/, ''));
      return EXIT.ok;
    }
    const rows = store.listCompareSessions(args.suite !== undefined ? { suite: args.suite } : {});
    if (args.json) io.out(JSON.stringify(rows satisfies CompareSessionList, null, 2));
    else if (!rows.length) io.out(`no comparison sessions in ${store.location}`);
    else
      for (const r of rows)
        io.out(`${r.session_id}  ${safe(r.suite)}  ${r.kind}  ${r.created_at}\n    ${safe(r.summary)}`);
    return EXIT.ok;
  } finally {
    store.close();
  }
}

/** The suite to compare on, once the flags that bound a comparison are checked. */
function checkCompareArgs(args: CompareArgs): string {
  if (args.suite === undefined)
    throw new RgateError(
      'usage',
      'name the suite to compare on',
      'rgate compare <suite> --set a=1 --set a=2',
    );
  if (!(args.alpha > 0 && args.alpha < 1))
    throw new RgateError('usage', `--alpha ${args.alpha}: must be in (0, 1)`);
  if (args.resamples < 100 || args.permutations < 100)
    throw new RgateError('usage', '--resamples and --permutations need at least 100');
  return args.suite;
}

/** `--save`: the session into the history and its files under the out dir. */
function saveCompareSession(args: CompareArgs, io: CliIo, session: CompareSession): void {
  const sessionId = session.environment.session_id;
  const store = openStore(io, args, false);
  try {
    saveSession(store, session);
  } finally {
    store.close();
  }
  const dir = join(outDirOf(io, args['out-dir'], args.config), 'compare', sessionId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'session.json'), renderSessionJson(session));
  writeFileSync(join(dir, 'session.md'), renderSessionMarkdown(session));
  writeFileSync(join(dir, 'session.html'), renderSessionHtml(session));
  io.err(
    painter(false)(
      'dim',
      `rgate: session ${sessionId} stored; files in ${relative(io.cwd, dir) || dir}/session.{json,md,html}`,
    ),
  );
}
