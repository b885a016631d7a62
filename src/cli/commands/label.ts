import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, RgateError } from '../../core/errors.js';
import {
  loadFixtureSet,
  mergeQrels,
  readJudgments,
  resolveFixtureDir,
  type QrelsMergeResult,
} from '../../snapshot/index.js';
import type {
  LabelMergeOutput,
  LabelQueue,
  LabelQueueOutput,
  QueryRecord,
  Report,
} from '../../documents/index.js';
import type { RunStore } from '../../store/index.js';
import { agreeGraders, pairKey, type Grader } from '../../../history/label-agree.js';
import { loadReport } from './diff.js';
import {
  buildLabelQueue,
  rankingsFromStore,
  type QueueRankings,
  type VerdictPair,
} from '../../../history/label-queue.js';
import { asReport } from '../../../history/trends.js';
import {
  modeSystem,
  POOL_MODES_ALL,
  rankingsFromSystems,
  type PoolSystem,
} from '../../../history/label-pool.js';
import {
  labelQueueSize,
  renderLabelQueueHtml,
  renderLabelQueueJsonl,
} from '../../../reports/history/label-queue.js';
import { safe } from '../../../reports/history/shared.js';
import type { CliIo, RgateCommand } from '../command.js';
import { outDirOf } from '../out-dir.js';
import { loadSuiteSpec, openStore, withStoreOptions, type StoreArgs } from './history.js';
import { loadSession } from '../../../history/compare.js';
import { requireRankings, valuesUnder, winnerChanges } from '../../../history/compare-rescore.js';
import { winnerFlipPairs } from '../../../history/compare-winner-holes.js';

interface LabelArgs extends StoreArgs {
  action: 'queue' | 'merge' | 'pool' | 'agree';
  run?: string;
  session?: string;
  target: string;
  judgments?: string;
  k: number;
  depth?: number;
  systems?: string[];
  modes?: string[];
  priority?: 'verdict';
  out?: string;
  json?: boolean;
  judge?: string;
  date?: string;
  version?: string;
  'reset-note'?: string;
  'dry-run'?: boolean;
}

function refuseMergeFlags(args: LabelArgs, action: string): void {
  for (const f of ['judge', 'date', 'version', 'reset-note', 'dry-run'] as const)
    if (args[f] !== undefined) throw new RgateError('usage', `--${f} belongs to rgate label merge`);
  if (action !== 'pool')
    for (const f of ['depth', 'systems', 'modes', 'priority'] as const)
      if (args[f] !== undefined) throw new RgateError('usage', `--${f} belongs to rgate label pool`);
  if (action !== 'agree' && args.run !== undefined)
    throw new RgateError('usage', '--run belongs to rgate label agree');
  if (action !== 'agree' && action !== 'pool' && args.session !== undefined)
    throw new RgateError('usage', '--session belongs to rgate label agree and label pool --priority verdict');
}

/** A grader: a judgments file (.jsonl), or a fixture set's frozen qrels (its name or folder). */
function graderOf(io: CliIo, ref: string): Grader {
  const path = resolve(io.cwd, ref);
  const grades = new Map<string, number>();
  if (ref.endsWith('.jsonl')) {
    // a later line for the same pair overrides an earlier one, as a merge would
    for (const { value } of readJudgments(path))
      grades.set(pairKey(value.query_id, value.doc_id), value.grade);
    return { source: ref, kind: 'judgments', grades };
  }
  const set = loadFixtureSet(ref, { root: io.cwd, verify: false });
  for (const q of set.queries)
    for (const [doc, g] of Object.entries(q.qrels ?? {})) grades.set(pairKey(q.query_id, doc), g);
  return { source: ref, kind: 'qrels', grades };
}

/** Each ranking measure's compare winner with a's grades, and with b's, over the frozen qrels where each grades. */
function compareWinnersWith(io: CliIo, args: LabelArgs, sessionId: string, a: Grader, b: Grader) {
  const store = openStore(io, args);
  try {
    const session = loadSession(store, sessionId);
    requireRankings(session, 'label agree --session');
    const { spec, root } = loadSuiteSpec(io, session.suite, args.config);
    const set = loadFixtureSet(spec.fixture, { root, verify: false });
    const filling = (g: Grader) => {
      const mine = new Map<string, Record<string, number>>();
      for (const [key, grade] of g.grades) {
        const [q, doc] = key.split('\u0000') as [string, string];
        (mine.get(q) ?? mine.set(q, {}).get(q)!)[doc] = grade;
      }
      return (q: QueryRecord) => ({ ...q.qrels, ...mine.get(q.query_id) });
    };
    const { values, rescored, not_rescored } = valuesUnder(session, set.queries, [filling(a), filling(b)]);
    return {
      session_id: sessionId,
      winners: winnerChanges(session, values[0]!, values[1]!, rescored),
      ...(not_rescored.length ? { not_rescored } : {}),
    };
  } finally {
    store.close();
  }
}

function agree(args: LabelArgs, io: CliIo): number {
  refuseMergeFlags(args, 'agree');
  if (args.judgments === undefined)
    throw new RgateError(
      'usage',
      'label agree needs two graders',
      'rgate label agree <a.jsonl> <b.jsonl> (or a fixture set for its frozen qrels)',
    );
  const a = graderOf(io, args.target);
  const b = graderOf(io, args.judgments);
  let run: { run_id: string; report: Report } | undefined;
  if (args.run !== undefined) {
    let store: RunStore | undefined;
    try {
      const report = loadReport(io, args.run, () => (store ??= openStore(io, args)));
      run = { run_id: report.environment.run_id, report };
    } finally {
      store?.close();
    }
  }
  const compare = args.session !== undefined ? compareWinnersWith(io, args, args.session, a, b) : undefined;
  const doc = agreeGraders(a, b, run?.report.settings.relevance_level ?? 1, run, compare);
  if (args.json) {
    io.out(JSON.stringify(doc, null, 2));
    return EXIT.ok;
  }
  io.out(safe(doc.summary));
  if (doc.pairs > 0) {
    io.out(`confusion (rows: ${safe(doc.a.source)}, columns: ${safe(doc.b.source)}):`);
    const w = Math.max(5, ...doc.confusion.flat().map((c) => String(c).length + 1));
    io.out(`  ${'grade'.padStart(w)}${doc.levels.map((l) => String(l).padStart(w)).join('')}`);
    doc.levels.forEach((l, i) =>
      io.out(`  ${String(l).padStart(w)}${doc.confusion[i]!.map((c) => String(c).padStart(w)).join('')}`),
    );
  }
  return EXIT.ok;
}

/** "a,b" "c" -> ["a", "b", "c"]: a list flag may be repeated or comma-separated. */
function listFlag(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

async function pool(args: LabelArgs, io: CliIo): Promise<number> {
  refuseMergeFlags(args, 'pool');
  if (args.judgments !== undefined)
    throw new RgateError(
      'usage',
      `label pool takes one suite, not "${args.judgments}"`,
      'rgate label pool <suite> --modes all',
    );
  const { spec, root } = loadSuiteSpec(io, args.target, args.config);
  const modes = listFlag(args.modes).flatMap((m) => (m === 'all' ? [...POOL_MODES_ALL] : [m]));
  const suites = listFlag(args.systems);
  if (modes.length + suites.length === 0)
    throw new RgateError(
      'usage',
      'label pool needs the systems to pool',
      `--modes ${POOL_MODES_ALL.join(',')} (builtin modes on the suite's fixture) and/or --systems <suite,...> (suites of rgate.config.json)`,
    );
  const systems: PoolSystem[] = [];
  const seen = new Set<string>();
  for (const name of suites) {
    if (seen.has(`suite ${name}`)) continue;
    seen.add(`suite ${name}`);
    const s = loadSuiteSpec(io, name, args.config);
    // a pool judges one frozen set: a system run on another fixture answers with another corpus's ids
    if (resolveFixtureDir(s.spec.fixture, s.root) !== resolveFixtureDir(spec.fixture, root))
      throw new RgateError(
        'usage',
        `label pool ${args.target}: suite ${name} runs on fixture ${s.spec.fixture}, suite ${args.target} on fixture ${spec.fixture}; a pool needs systems on the same fixture`,
        `--systems takes suites whose "fixture" is ${spec.fixture}; for another set, pool it with its own suite (rgate label pool ${name} ...)`,
      );
    systems.push({ id: `s${systems.length + 1}`, label: `suite ${name}`, suite: name, spec: s.spec });
  }
  for (const m of modes) {
    if (seen.has(`mode ${m}`)) continue;
    seen.add(`mode ${m}`);
    systems.push(modeSystem(args.target, spec, m, `s${systems.length + 1}`));
  }
  const k = args.depth ?? args.k;
  const poolId = `pool-${args.target}-k${k}`;
  const rankings = await rankingsFromSystems({
    suite: args.target,
    systems,
    root,
    poolId,
    startedAt: new Date().toISOString(),
  });
  const set = loadFixtureSet(spec.fixture, { root, verify: false });
  const priority = args.priority === 'verdict' ? verdictPairsOf(io, args) : undefined;
  return writeQueue(buildLabelQueue(rankings, set, k, true, priority), args, io, poolId);
}

/** The pairs whose grade could flip a winner of a comparison session, as the session states them. */
function sessionPairsOf(
  store: RunStore,
  args: LabelArgs,
  id: string,
): { session_id: string; pairs: VerdictPair[] } {
  const session = loadSession(store, id);
  if (session.suite !== args.target)
    throw new RgateError(
      'usage',
      `--session ${id} compared suite ${session.suite}, not ${args.target}`,
      `pool that suite: rgate label pool ${session.suite} --priority verdict --session ${id}`,
    );
  if (!session.winner_holes)
    throw new RgateError(
      'usage',
      `--priority verdict --session ${id}: this session predates compare sessions stating the pairs whose grade could flip a winner`,
      `re-run the comparison (rgate compare ${session.suite} ...) and pool with the new session`,
    );
  return { session_id: id, pairs: winnerFlipPairs(session.winner_holes) };
}

/** The pairs that can change the verdict of the suite's newest complete run (or flip a winner of --session). */
function verdictPairsOf(
  io: CliIo,
  args: LabelArgs,
): { run_id?: string; session_id?: string; pairs: VerdictPair[] } {
  const store = openStore(io, args);
  try {
    if (args.session !== undefined) return sessionPairsOf(store, args, args.session);
    const newest = store.listRuns({ suite: args.target, status: 'complete', limit: 1 })[0];
    if (!newest)
      throw new RgateError(
        'usage',
        `--priority verdict: no complete run of suite ${args.target} in ${store.location}`,
        `run it first (rgate run ${args.target}): the verdict to order for is that run's`,
      );
    const pairs = asReport(store.getReport(newest.run_id))?.gate.verdict_pairs;
    if (!pairs)
      throw new RgateError(
        'usage',
        `--priority verdict: run ${newest.run_id} states no pairs that can change its verdict (its gate has no top-1 rate or ranking measure rule, or it was written before rgate stated them)`,
        `run the suite again (rgate run ${args.target}), or pool without --priority`,
      );
    return { run_id: newest.run_id, pairs };
  } finally {
    store.close();
  }
}

function queue(args: LabelArgs, io: CliIo): number {
  refuseMergeFlags(args, 'queue');
  if (args.judgments !== undefined)
    throw new RgateError(
      'usage',
      `label queue takes one id, not "${args.judgments}"`,
      'rgate label queue <run-or-session-id>',
    );
  const store = openStore(io, args);
  let doc: LabelQueue;
  let rankings: QueueRankings;
  try {
    rankings = rankingsFromStore(store, args.target);
    const { spec, root } = loadSuiteSpec(io, rankings.origin.suite, args.config);
    // the folder as it is now: judgments merged since the run leave the queue (the corpus is checked)
    const set = loadFixtureSet(spec.fixture, { root, verify: false });
    doc = buildLabelQueue(rankings, set, args.k);
  } finally {
    store.close();
  }
  return writeQueue(doc, args, io, args.target);
}

/** Write queue.jsonl and queue.html and say what they hold. */
function writeQueue(doc: LabelQueue, args: LabelArgs, io: CliIo, id: string): number {
  const dir =
    args.out !== undefined
      ? resolve(io.cwd, args.out)
      : join(outDirOf(io, args['out-dir'], args.config), 'label', id);
  mkdirSync(dir, { recursive: true });
  const files = { jsonl: join(dir, 'queue.jsonl'), html: join(dir, 'queue.html') };
  writeFileSync(files.jsonl, renderLabelQueueJsonl(doc));
  writeFileSync(files.html, renderLabelQueueHtml(doc));
  const summary: LabelQueueOutput = {
    origin: doc.origin,
    fixture: doc.fixture,
    k: doc.k,
    sources: doc.sources.map((s) => s.id),
    judged_queries: doc.judged_queries,
    items: doc.items.length,
    queries: new Set(doc.items.map((i) => i.query_id)).size,
    not_in_corpus: doc.not_in_corpus,
    ...(doc.verdict ? { verdict: doc.verdict } : {}),
    query_set_changed: doc.query_set_changed,
    files,
  };
  if (args.json) io.out(JSON.stringify(summary, null, 2));
  else {
    const rel = (p: string) => relative(io.cwd, p) || p;
    io.out(
      `${labelQueueSize(doc)}, from the top ${doc.k} of ${doc.sources.length} ranking(s) of ${doc.origin.kind} ${safe(doc.origin.id)}`,
    );
    if (doc.blind)
      io.out(
        `  pooled blind from ${doc.sources.map((s) => `${s.id} ${safe(s.label)}`).join(', ')}: no item says which retrieved it`,
      );
    if (doc.verdict) {
      const what =
        doc.verdict.session_id !== undefined
          ? `a winner of comparison ${safe(doc.verdict.session_id)}`
          : `the verdict of run ${safe(doc.verdict.run_id ?? '')}`;
      io.out(
        doc.verdict.pairs > 0
          ? `  first: the ${doc.verdict.pairs === 1 ? 'pair' : `${doc.verdict.pairs} pairs`} whose grade could ${doc.verdict.session_id !== undefined ? 'flip' : 'change'} ${what}`
          : `  no pair can ${doc.verdict.session_id !== undefined ? 'flip' : 'change'} ${what}, graded either way: the queue is in its usual order`,
      );
    }
    if (doc.query_set_changed)
      io.out(`  the query set changed since the ${doc.origin.kind}: pairs judged since are left out`);
    if (doc.not_in_corpus) io.out(`  ${doc.not_in_corpus} ranked id(s) not in the corpus were left out`);
    io.out(`  ${rel(files.html)}  (grade with the keyboard; press ? for help)`);
    io.out(`  ${rel(files.jsonl)}`);
    if (summary.items)
      io.out(`then: rgate label merge ${safe(doc.fixture)} <judgments.jsonl> --judge "<name>"`);
  }
  return EXIT.ok;
}

async function merge(args: LabelArgs, io: CliIo): Promise<number> {
  if (args.judgments === undefined)
    throw new RgateError(
      'usage',
      'label merge needs a judgments file',
      'rgate label merge <set> <judgments.jsonl> --judge <name>',
    );
  if (args.judge === undefined)
    throw new RgateError(
      'usage',
      'label merge needs --judge <name>',
      'who graded is recorded with every judgment',
    );
  const r: QrelsMergeResult = await mergeQrels(
    resolveFixtureDir(args.target, io.cwd),
    resolve(io.cwd, args.judgments),
    {
      judge: args.judge,
      ...(args.date !== undefined ? { date: args.date } : {}),
      ...(args.version !== undefined ? { version: String(args.version) } : {}),
      ...(args['reset-note'] !== undefined ? { resetNote: args['reset-note'] } : {}),
      ...(args['dry-run'] ? { dryRun: true } : {}),
    },
  );
  if (args.json) {
    const { frozen, ...rest } = r;
    const out: LabelMergeOutput = {
      ...rest,
      ...(frozen
        ? {
            freeze: {
              action: frozen.action,
              version: frozen.freeze.version,
              query_set_id: frozen.freeze.query_set_id,
            },
          }
        : {}),
    };
    io.out(JSON.stringify(out, null, 2));
    return EXIT.ok;
  }
  const verb = r.written ? 'merged' : args['dry-run'] && r.added ? 'would merge' : 'nothing to merge:';
  io.out(
    `${verb} ${r.added} judgment(s) over ${r.queries_touched} queries into ${safe(r.set)} (judge ${safe(r.judge)}, ${r.date}); ${r.unchanged} already there`,
  );
  if (r.frozen)
    io.out(
      `  re-frozen: ${r.frozen.freeze.artifact_id} ${r.frozen.freeze.version}  ${r.frozen.freeze.query_set_id}`,
    );
  return EXIT.ok;
}

/** `rgate label queue|pool|merge`: pool unjudged top-k documents for grading, and merge the grades back. */
export const labelCommand: RgateCommand<LabelArgs> = {
  command: 'label <action> <target> [judgments]',
  describe:
    'Grade the unjudged documents a run, a comparison or a pool of systems put in its top k, and merge the grades into the qrels',
  builder: (y: Argv) =>
    withStoreOptions(y)
      // `--version` is the fixture version of a merge, not rgate's own
      .version(false)
      .positional('action', {
        choices: ['queue', 'pool', 'merge', 'agree'] as const,
        describe:
          'queue: the grading page of a run or comparison; pool: run several systems or modes and queue the union of their top k (blind); merge: add a judgments file to a set; agree: two graders compared (kappa), and a run verdict under each',
      })
      .positional('target', {
        type: 'string',
        describe:
          'queue: a run id or comparison session id; pool: a suite of rgate.config.json; merge: the set (fixtures/<name>) or its folder',
      })
      .positional('judgments', {
        type: 'string',
        describe:
          'merge: the judgments JSONL the page saved; agree: the second grader (a .jsonl, or a set for its qrels)',
      })
      .option('run', {
        type: 'string',
        describe:
          "agree: a run (id or report.json) whose top-1 rate rules are re-counted with each grader's grades",
      })
      .option('session', {
        type: 'string',
        describe:
          "agree: a comparison session whose ranking measure and top-1 rate winners are named again with each grader's grades; pool --priority verdict: the session whose winner-flipping pairs come first",
      })
      .option('k', { type: 'number', default: 5, describe: "queue: pool each ranking's top k" })
      .option('depth', { type: 'number', describe: "pool: each system's top k (default 5, as --k)" })
      .option('modes', {
        type: 'string',
        array: true,
        describe: `pool: builtin engine modes on the suite's fixture (${POOL_MODES_ALL.join(', ')}, ku; all = the first five)`,
      })
      .option('systems', {
        type: 'string',
        array: true,
        describe: 'pool: suites of rgate.config.json on the same fixture, each run as configured',
      })
      .option('priority', {
        choices: ['verdict'] as const,
        describe:
          "pool: verdict = first the unjudged pairs whose grade could change the suite's newest run's verdict (its report's verdict_pairs), or with --session flip a winner of that comparison (its winner_holes), pooled or not; then the rest, blind",
      })
      .option('out', {
        type: 'string',
        describe: 'queue: folder for queue.jsonl and queue.html (default <out-dir>/label/<id>/)',
      })
      .option('json', { type: 'boolean', describe: 'print a summary as JSON' })
      .option('judge', { type: 'string', describe: 'merge: who graded (recorded on every entry)' })
      .option('date', {
        type: 'string',
        describe:
          'merge: YYYY-MM-DD for lines without a date, and the re-freeze date (default: the latest line date)',
      })
      .option('version', { type: 'string', describe: 'merge: new version of a frozen set' })
      .option('reset-note', { type: 'string', describe: 'merge: baseline reset note for a frozen set' })
      .option('dry-run', { type: 'boolean', describe: 'merge: check everything, write nothing' })
      .example('$0 label queue cmp-20261123T101500Z-a1b2c3', "a comparison's variants, top 5")
      .example('$0 label queue <run-id> --k 10 --out review/', "one run's replays, top 10")
      .example('$0 label pool semantic --modes all --depth 5', 'every builtin mode, top 5, blind')
      .example(
        '$0 label agree ana.jsonl ben.jsonl --run <run-id>',
        "two graders' kappa, and whether the run's verdict changes between them",
      )
      .example('$0 label agree ana.jsonl context-load', 'a grader against the frozen qrels')
      .example(
        '$0 label pool semantic --modes all --priority verdict',
        "the pairs that could change the newest run's verdict first",
      )
      .example('$0 label pool semantic --systems semantic,my-http-suite --modes bm25', 'systems and modes')
      .example(
        '$0 label merge cacm grades.jsonl --judge ana --version v2 --reset-note "42 judgments"',
        'a frozen set',
      )
      .example('$0 label merge my-set grades.jsonl --judge ana --date 2026-11-23 --dry-run', 'check only'),
  handler: async (args, io) =>
    args.action === 'queue'
      ? queue(args, io)
      : args.action === 'pool'
        ? pool(args, io)
        : args.action === 'agree'
          ? agree(args, io)
          : merge(args, io),
};
