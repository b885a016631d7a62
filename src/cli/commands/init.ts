import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { parseGatePolicy } from '../../../gates/index.js';
import {
  RESPONSE_CONTRACTS,
  type InitOutput,
  type RgateConfigFile,
  type SuiteSpec,
} from '../../documents/index.js';
import { validateRgateConfig } from '../../contracts/rgate-config.js';
import { formatAjvErrors } from '../../contracts/ajv.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { EXIT, RgateError } from '../../core/errors.js';
import { loadRgateConfig } from '../../systems/index.js';
import { locateSmartFiles, locateTrecFiles, resolveFixtureDir } from '../../snapshot/index.js';
import type { CliIo, RgateCommand } from '../command.js';
import { importCommand } from './import.js';
import { shellWord } from '../../core/shell-word.js';
import { checkPlaceholders, describeSystem, systemSpec } from '../init-system.js';

const CONFIG = 'rgate.config.json';

type FromKind = 'beir' | 'trec' | 'smart' | 'dir' | 'memory-cli';
const FROM_KINDS: readonly string[] = ['beir', 'trec', 'smart', 'dir', 'memory-cli'];

interface InitArgs {
  _: (string | number)[];
  system?: string[];
  contract?: string;
  from?: string[];
  fixture?: string;
  topics?: string;
  queries?: string;
  qrels?: string[];
  docs?: string;
  'topic-field'?: 'title' | 'description' | 'title+description';
  'positional-query-ids'?: boolean;
  'reverse-grades'?: string;
  suite: string;
  gate?: string;
  'min-ndcg'?: number;
  ci?: 'github' | 'gitlab';
  force: boolean;
  json?: boolean;
}

/** The CI file each `--ci` choice writes, and the template it is copied from (templates/ in the package). */
const CI_FILES = {
  github: { path: '.github/workflows/rgate.yml', template: 'github-workflow.yml' },
  gitlab: { path: '.gitlab-ci.yml', template: 'gitlab-ci.yml' },
} as const;

/**
 * The gate `rgate init` writes for a new suite: what any retriever must do (answer every request,
 * rank the same way on every replay) and one quality floor the team owns (nDCG@10, default 0.3:
 * set it from the first runs). A copy in the project, so the team edits it and reviews its changes.
 */
function starterGate(id: string, minNdcg: number, queries: number): unknown {
  return {
    gate_id: id,
    version: '1.0.0',
    // fewer queries than the set holds (a filter, a broken import) is no verdict
    min_queries: queries,
    description: `Starter gate written by rgate init for suite ${id}: every request answered, identical rankings in every replay, a floor on nDCG@10. Tune the floor from your first runs (rgate history).`,
    rules: [
      { metric: 'error_rate', max: 0, description: 'Every request answered' },
      {
        metric: 'replay_determinism',
        min: 1,
        description: 'Identical rankings in every replay (no runtime-randomised ordering)',
      },
      {
        metric: 'ndcg_cut.10',
        min: minNdcg,
        description: 'Ranking quality floor on the judged queries (set by the team)',
      },
    ],
  };
}

/**
 * `rgate init --help`'s examples; init.test.ts runs each one, in a folder holding the data it names
 * (./data/..., ./docs, search.mjs), so none can drift from what init does.
 */
export const INIT_EXAMPLES: readonly [string, string][] = [
  [
    '$0 init --from beir ./data/scifact --system command --contract rgate -- node search.mjs {corpus_dir} {k} {query}',
    'your retriever as a command, your BEIR data',
  ],
  [
    '$0 init --from trec ./data/cacm',
    'a TREC collection folder: topics.*, qrels.*, the documents as a .tar.gz or docs/ (builtin BM25 system)',
  ],
  [
    '$0 init --from smart ./data/cranfield --positional-query-ids --reverse-grades max',
    'a SMART collection folder (cran.all.1400, cran.qry, cranqrel) with its numbering and code traps stated',
  ],
  [
    '$0 init --from dir ./docs --system http http://127.0.0.1:8080/retrieve --ci github',
    'a retrieval service over your docs tree, with a GitHub workflow',
  ],
  [
    '$0 init --fixture context-load --gate context-load-contract-v0 --system builtin context-load',
    'the bundled demo set and gate, on the builtin engine in context-load mode',
  ],
];

/** `rgate init`: start gating a retriever in this repository, from flags only (it never asks). */
export const initCommand: RgateCommand<InitArgs> = {
  command: 'init',
  describe: 'Start gating your retriever here: rgate.config.json, a frozen fixture set, a gate, a CI file',
  builder: (y: Argv) =>
    y
      .option('system', {
        type: 'string',
        array: true,
        describe:
          "builtin [mode] (default: builtin, in the mode the --fixture set's config.json names, else bm25) | command (its argv after --) | http <url> | module <path>#<export> (a TypeScript or JavaScript retriever, loaded in-process)",
      })
      .option('contract', {
        choices: RESPONSE_CONTRACTS,
        describe: 'response contract of a command or http system (see docs/systems.md, "Response contracts")',
      })
      .option('from', {
        type: 'string',
        array: true,
        describe:
          'beir|trec|smart|dir|memory-cli <path>: import your data as fixtures/<suite>, frozen (trec, smart: the folder holding the collection)',
      })
      .option('topics', {
        type: 'string',
        describe: '--from trec: the topics file (default: the file named *topic* in the folder)',
      })
      .option('queries', {
        type: 'string',
        describe:
          "--from smart: the query file (default: *.qry or query* in the folder); --from dir|memory-cli: your judged queries, an rgate queries.jsonl (default: none); --from beir: instead of the folder's queries.jsonl",
      })
      .option('qrels', {
        type: 'string',
        array: true,
        describe: '--from trec|smart: the judgments (default: the files named *qrel* or *.rel in the folder)',
      })
      .option('docs', {
        type: 'string',
        describe:
          '--from trec: the documents, a .tar.gz or folder of HTML/text or TREC <DOC> files, or one <DOC> file (default: the one .tar.gz, docs/, or *.sgml/*.trec); --from smart: the tagged documents (default: *.all*)',
      })
      .option('topic-field', {
        choices: ['title', 'description', 'title+description'] as const,
        describe: '--from trec with <top> topics: the query text (default: title)',
      })
      .option('positional-query-ids', {
        type: 'boolean',
        describe: '--from smart: qrels query n = the n-th .I of the query file (Cranfield)',
      })
      .option('reverse-grades', {
        type: 'string',
        describe:
          '--from smart: codes run backwards (1 = most relevant): grade = max+1-code ("max" or a number)',
      })
      .option('fixture', {
        type: 'string',
        describe: 'use an existing fixture set instead (a name under fixtures/, or a bundled demo set)',
      })
      .option('suite', { type: 'string', default: 'retrieval', describe: 'name of the suite to write' })
      .option('gate', {
        type: 'string',
        describe:
          'a gate id to use as it is (yours under gates/, or a bundled one); default: a starter gate written to gates/<suite>.gate.json',
      })
      .option('min-ndcg', {
        type: 'number',
        default: 0.3,
        describe: "the starter gate's floor on ndcg_cut.10",
      })
      .option('ci', {
        choices: ['github', 'gitlab'] as const,
        describe: 'also write a CI file: .github/workflows/rgate.yml or .gitlab-ci.yml',
      })
      .option('force', { type: 'boolean', default: false, describe: 'overwrite files that exist' })
      .option('json', { type: 'boolean', describe: 'print what was written as JSON' })
      .example([...INIT_EXAMPLES]),
  handler: async (args, io) => initHandler(args, io),
};

async function initHandler(args: InitArgs, io: CliIo): Promise<number> {
  const root = io.cwd;
  const suiteName = args.suite;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(suiteName))
    throw new RgateError('usage', `--suite ${JSON.stringify(suiteName)}: letters, digits, . _ - only`);
  const from = fromSpec(args);
  if (!from && !args.fixture && args.ci && existsSync(join(root, CONFIG)))
    return addCiFile(args, args.ci, io);
  const system = systemSpec(args, root);
  if (!from && !args.fixture)
    throw new RgateError(
      'usage',
      'rgate init needs your data: --from beir|trec|smart|dir|memory-cli <path>, or --fixture <set>',
      `e.g. --from beir ./data/scifact, or --fixture context-load (the bundled demo set); --ci ${args.ci ?? 'github|gitlab'} alone adds only the CI file to a folder that has ${CONFIG}`,
    );
  if (from && args.fixture) throw new RgateError('usage', '--from and --fixture: give one of them');
  const fixture = args.fixture ?? suiteName;
  const gateId = args.gate ?? suiteName;
  checkPlaceholders(system, args.fixture, root);

  // a repository already gating other suites keeps them: this suite is added beside them
  const existing = existsSync(join(root, CONFIG))
    ? loadRgateConfig(root, join(root, CONFIG))!.config
    : undefined;
  if (existing && Object.hasOwn(existing.suites, suiteName) && !args.force)
    throw new RgateError(
      'usage',
      `rgate init: ${CONFIG} already has a suite named ${suiteName}`,
      `--suite <another name> adds one beside it (suites: ${Object.keys(existing.suites).sort().join(', ')}); --force replaces it`,
    );
  const writes: { path: string; what: string }[] = [
    { path: CONFIG, what: existing ? `suite ${suiteName} added` : 'the suite' },
  ];
  if (from) writes.push({ path: `fixtures/${fixture}/`, what: `your ${from.kind} data, frozen` });
  if (!args.gate) writes.push({ path: `gates/${gateId}.gate.json`, what: 'the starter gate' });
  if (args.ci) writes.push({ path: CI_FILES[args.ci].path, what: `the ${args.ci} CI file` });
  const taken = writes.filter((w) => w.path !== CONFIG && existsSync(join(root, w.path)));
  if (taken.length > 0 && !args.force)
    throw new RgateError(
      'usage',
      `rgate init would overwrite ${taken.map((w) => w.path).join(', ')}`,
      'pass --force to overwrite, or run it in another folder',
    );

  const config = configWithSuite(existing, suiteName, fixture, system, gateId);

  // the data first: an import that fails leaves no config pointing at a set that does not exist
  const imported: string[] = [];
  if (from) {
    const code = await importInto(from, args, io, fixture, imported);
    if (code !== EXIT.ok) return code;
  }
  // a set named by --fixture with a gate named by --gate is used as it is, unread
  const queryCount =
    from || !args.gate
      ? readFileSync(join(resolveFixtureDir(fixture, root), 'queries.jsonl'), 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '').length
      : undefined;
  if (!args.gate) {
    // a set with no queries yet (a docs tree) gates at least one once they are added
    const gate = starterGate(gateId, args['min-ndcg'] ?? 0.3, Math.max(queryCount ?? 0, 1));
    parseGatePolicy(gate, `gates/${gateId}.gate.json`);
    writeFile(root, `gates/${gateId}.gate.json`, `${JSON.stringify(gate, null, 2)}\n`);
  }
  if (args.ci) {
    const ci = CI_FILES[args.ci];
    writeFile(root, ci.path, readFileSync(templateFile(root, ci.template), 'utf8'));
  }
  writeFile(root, CONFIG, `${JSON.stringify(config, null, 2)}\n`);
  const ignored = ignoreGenerated(root);
  if (ignored.length > 0) writes.push({ path: '.gitignore', what: `ignores ${ignored.join(', ')}` });

  const next = [
    ...(from && queryCount === 0 ? addQueriesSteps(from, fixture) : []),
    `npx rgate run              # replay ${suiteName}, print the verdict, write .rgate/runs/<run-id>/`,
    `npx rgate history ${suiteName}   # trends and regression alarms once you have runs`,
    `npx rgate baseline set ${suiteName} --note "first baseline"`,
  ];
  printInit(args, io, { suiteName, fixture, system, writes, imported, next });
  return EXIT.ok;
}

/**
 * `rgate init --ci <kind>` in a folder already set up (rgate.config.json there, no --from or
 * --fixture): only the CI file is written; the config, sets and gates are left as they are. Flags
 * that shape a suite would be ignored, so they are refused; an existing CI file needs --force.
 */
function addCiFile(args: InitArgs, kind: 'github' | 'gitlab', io: CliIo): number {
  const root = io.cwd;
  const suiteFlag = (['system', 'contract', 'gate'] as const).find((k) => args[k] !== undefined);
  const argv = args._.slice(1).map(String);
  if (suiteFlag || argv.length > 0)
    throw new RgateError(
      'usage',
      `rgate init --ci ${kind} without --from or --fixture adds only the CI file; ${
        suiteFlag ? `--${suiteFlag}` : `the command after -- (${argv.map(shellWord).join(' ')})`
      } would be ignored`,
      `to add a suite as well: rgate init --suite <name> --from <kind> <path> (or --fixture <set>) ... --ci ${kind}`,
    );
  const ci = CI_FILES[kind];
  if (existsSync(join(root, ci.path)) && !args.force)
    throw new RgateError(
      'usage',
      `rgate init --ci ${kind} would overwrite ${ci.path}`,
      'pass --force to overwrite it (nothing else is written), or edit it by hand',
    );
  writeFile(root, ci.path, readFileSync(templateFile(root, ci.template), 'utf8'));
  const wrote = [{ path: ci.path, what: `the ${kind} CI file` }];
  const next = [`git add ${ci.path}   # the job runs npx rgate run: the suites ${CONFIG} runs by default`];
  if (args.json) io.out(JSON.stringify({ wrote, next } satisfies InitOutput, null, 2));
  else {
    io.out(
      `rgate init: ${CONFIG} is here: only the CI file written (the config, sets and gates are as they were)`,
    );
    for (const w of wrote) io.out(`  wrote ${w.path.padEnd(32)} ${w.what}`);
    io.out('next:');
    for (const n of next) io.out(`  ${n}`);
  }
  return EXIT.ok;
}

/**
 * The steps before a first run when the set has no queries (a docs tree, a memory root with none
 * given): `rgate run` would have no evidence to gate on. The import is the one init ran, with the
 * queries, onto the frozen set (hence the version and the reset note).
 */
function addQueriesSteps(from: { kind: FromKind; path: string }, fixture: string): string[] {
  return [
    `# no queries yet: write queries.jsonl, one judged query a line, qrels on ids in fixtures/${fixture}/corpus.jsonl:`,
    `#   {"query_id":"q1","text":"how do we rotate the api keys","qrels":{"<corpus id>":1}}`,
    `npx rgate import ${from.kind} ${shellWord(from.path)} --queries queries.jsonl --out fixtures/${fixture} --freeze --force --version v2 --reset-note "judged queries added"`,
  ];
}

/**
 * Which response contract a command or http system is read with, and where to change it: an http
 * system without `--contract` gets the adapter's default (context-pack), which a team answering
 * rgate's own shape would otherwise find out from every request failing its contract.
 */
function contractNote(
  system: SuiteSpec['system'],
  suite: string,
): { name: string; line: string } | undefined {
  if (system.type === 'builtin') return undefined;
  const name = system.contract ?? 'context-pack';
  const how = `change it with --contract (${RESPONSE_CONTRACTS.join(', ')}) or /suites/${suite}/system/contract in rgate.config.json; docs/systems.md, "Response contracts"`;
  return {
    name,
    line: `  contract: ${name}${system.contract ? '' : " (http's default: seed 004's ContextPack)"}; ${how}`,
  };
}

/**
 * What a run leaves that is not to be committed: the reports (`.rgate/runs/`, rewritten by every run;
 * CI uploads them as artifacts) and the installed packages. `.rgate/history.sqlite` stays
 * committable: it carries the baseline to CI. Lines are only ever appended, and an entry already
 * there in any of git's spellings (with or without the leading or trailing slash) is not repeated.
 */
function ignoreGenerated(root: string): string[] {
  const file = join(root, '.gitignore');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim().replace(/^\//, '').replace(/\/$/, '')));
  const add = ['.rgate/runs/', 'node_modules/'].filter(
    (e) => !have.has(e.slice(0, -1)) && !(e.startsWith('.rgate/') && have.has('.rgate')),
  );
  if (add.length > 0)
    writeFileSync(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${add.join('\n')}\n`);
  return add;
}

/**
 * The builtin mode a set is made for, when `--fixture` names one whose config.json says so (the
 * bundled ku-runbooks: ku); an imported set names none, and bm25 is the default then.
 */
function fromSpec(args: InitArgs): { kind: FromKind; path: string } | undefined {
  if (!args.from) {
    const stray = (
      ['topics', 'queries', 'qrels', 'docs', 'topic-field', 'positional-query-ids', 'reverse-grades'] as const
    ).find((k) => args[k] !== undefined);
    if (stray) throw new RgateError('usage', `--${stray} goes with --from trec|smart <folder>`);
    return undefined;
  }
  const [kind, path] = args.from;
  if (!kind || !FROM_KINDS.includes(kind) || !path)
    throw new RgateError(
      'usage',
      '--from needs a kind and a path',
      'e.g. --from beir ./data/scifact (kinds: beir, trec, smart, dir, memory-cli)',
    );
  const onlyFor = (flags: readonly (keyof InitArgs)[], kinds: string): void => {
    const f = flags.find((k) => args[k] !== undefined);
    if (f) throw new RgateError('usage', `--${String(f)} goes with --from ${kinds}, not --from ${kind}`);
  };
  if (kind !== 'trec' && kind !== 'smart') onlyFor(['qrels', 'docs'], 'trec|smart');
  if (kind !== 'trec') onlyFor(['topics', 'topic-field'], 'trec');
  if (kind !== 'smart') onlyFor(['positional-query-ids', 'reverse-grades'], 'smart');
  // as `rgate import` takes it: every kind but trec (whose queries are its topics)
  if (kind === 'trec') onlyFor(['queries'], 'beir|smart|dir|memory-cli');
  return { kind: kind as FromKind, path };
}

/**
 * What `rgate import` is given for `--from`: BEIR, dir and memory-cli take the path as it is; a TREC
 * or SMART folder is looked into for its files (the flags name any it cannot tell). Paths are kept
 * relative to the project, as the user would type them, for the set's PROVENANCE.md.
 */
function importArgs(
  from: { kind: FromKind; path: string },
  args: InitArgs,
  root: string,
): {
  kind: FromKind;
  path?: string;
  topics?: string;
  queries?: string;
  qrels?: string[];
  docs?: string;
} & Pick<InitArgs, 'topic-field' | 'positional-query-ids' | 'reverse-grades'> {
  const at = (p: string | undefined): string | undefined => (p === undefined ? undefined : resolve(root, p));
  const rel = (p: string): string => relative(root, p) || '.';
  const folder = resolve(root, from.path);
  if (from.kind === 'trec') {
    const f = locateTrecFiles(folder, {
      ...(args.topics ? { topics: at(args.topics)! } : {}),
      ...(args.qrels ? { qrels: args.qrels.map((q) => at(q)!) } : {}),
      ...(args.docs ? { docs: at(args.docs)! } : {}),
    });
    return {
      kind: 'trec',
      topics: rel(f.topics),
      qrels: f.qrels.map(rel),
      ...(f.docs ? { docs: rel(f.docs) } : {}),
      ...(args['topic-field'] ? { 'topic-field': args['topic-field'] } : {}),
    };
  }
  if (from.kind === 'smart') {
    if ((args.qrels?.length ?? 0) > 1) throw new RgateError('usage', '--from smart takes one --qrels file');
    const f = locateSmartFiles(folder, {
      ...(args.queries ? { queries: at(args.queries)! } : {}),
      ...(args.qrels?.[0] ? { qrels: at(args.qrels[0])! } : {}),
      ...(args.docs ? { docs: at(args.docs)! } : {}),
    });
    return {
      kind: 'smart',
      queries: rel(f.queries),
      ...(f.qrels ? { qrels: [rel(f.qrels)] } : {}),
      ...(f.docs ? { docs: rel(f.docs) } : {}),
      ...(args['positional-query-ids'] ? { 'positional-query-ids': true } : {}),
      ...(args['reverse-grades'] !== undefined ? { 'reverse-grades': args['reverse-grades'] } : {}),
    };
  }
  return { kind: from.kind, path: from.path, ...(args.queries ? { queries: args.queries } : {}) };
}

/** A CI template by name: the project's templates/ first, then the one shipped with rgate. */
function templateFile(root: string, name: string): string {
  for (const dir of [resolve(root, 'templates'), join(PACKAGE_ROOT, 'templates')]) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  throw new RgateError(
    'internal',
    `CI template ${name} not found under ${join(PACKAGE_ROOT, 'templates')}`,
    'reinstall rgate',
  );
}

function writeFile(root: string, rel: string, text: string): void {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** rgate.config.json with this suite in it: beside the suites a repository already gates, or alone. */
function configWithSuite(
  existing: RgateConfigFile | undefined,
  suiteName: string,
  fixture: string,
  system: SuiteSpec['system'],
  gateId: string,
): RgateConfigFile {
  const suite: SuiteSpec = {
    description: `Written by rgate init: ${describeSystem(system)} on fixture set ${fixture}`,
    fixture,
    system,
    gate: gateId,
    replays: 3,
    relevance_level: 1,
    ranking_measures: ['ndcg_cut.10', 'recall.10', 'recip_rank'],
  };
  const config: RgateConfigFile = existing
    ? {
        ...existing,
        suites: { ...existing.suites, [suiteName]: suite },
        // no default_suites means every suite runs: the new one with them
        ...(existing.default_suites
          ? { default_suites: [...new Set([...existing.default_suites, suiteName])] }
          : {}),
      }
    : {
        $schema: './node_modules/rgate/dist/schemas/rgate.config.schema.json',
        suites: { [suiteName]: suite },
        default_suites: [suiteName],
      };
  if (!validateRgateConfig(config))
    throw new RgateError(
      'usage',
      `the suite rgate init built is invalid: ${formatAjvErrors(validateRgateConfig.errors)[0]}`,
    );
  return config;
}

/**
 * The data first: an import that fails leaves no config pointing at a set that does not exist. Its
 * counts and notes go to `imported`; returns the import's exit code.
 */
async function importInto(
  from: NonNullable<ReturnType<typeof fromSpec>>,
  args: InitArgs,
  io: CliIo,
  fixture: string,
  imported: string[],
): Promise<number> {
  const root = io.cwd;
  // a refused import leaves nothing init made: the folders that were not there before go again
  // (the outermost one: fixtures/ itself when init made it)
  const made = ['fixtures', join('fixtures', fixture)].find((d) => !existsSync(join(root, d)));
  const undo = () => {
    if (made !== undefined) rmSync(join(root, made), { recursive: true, force: true });
  };
  let code: number;
  try {
    code = await importCommand.handler(
      {
        ...importArgs(from, args, root),
        out: join('fixtures', fixture),
        freeze: true,
        force: args.force,
        negative: 'drop',
        'follow-symlinks': false,
        json: false,
      },
      // its counts and notes (ids not in the corpus, dropped codes) are the user's to read
      { ...io, out: (t) => void (t.startsWith('  ') && imported.push(t.trim())) },
    );
  } catch (e) {
    undo();
    throw e;
  }
  if (code !== EXIT.ok) undo();
  return code;
}

/** What init wrote and what to do next: the init-result document with --json, else lines. */
function printInit(
  args: InitArgs,
  io: CliIo,
  w: {
    suiteName: string;
    fixture: string;
    system: SuiteSpec['system'];
    writes: { path: string; what: string }[];
    imported: string[];
    next: string[];
  },
): void {
  const { suiteName, fixture, system, writes, imported, next } = w;
  const contract = contractNote(system, suiteName);
  if (args.json)
    io.out(
      JSON.stringify(
        {
          suite: suiteName,
          ...(contract ? { contract: contract.name } : {}),
          wrote: writes,
          imported,
          next,
        } satisfies InitOutput,
        null,
        2,
      ),
    );
  else {
    io.out(`rgate init: suite ${suiteName} (${describeSystem(system)}) on fixture set ${fixture}`);
    if (contract) io.out(contract.line);
    for (const w of writes) io.out(`  wrote ${w.path.padEnd(32)} ${w.what}`);
    if (imported.length > 0) io.out('import:');
    for (const line of imported) io.out(`  ${line}`);
    io.out('next:');
    for (const n of next) io.out(`  ${n}`);
  }
}
