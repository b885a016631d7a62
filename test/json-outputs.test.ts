/**
 * Every machine-readable output is a declared document: each command is run for real (the compiled
 * CLI, real SQLite histories in temp projects, a real refused TCP connection for the upload) with
 * its JSON flag, and what it prints on stdout is validated against the JSON Schema
 * shipped in dist/schemas/ (the files a user's script would read). A failure names the command and
 * the JSON path. Two projects run side by side to keep the file quick: a Cranfield cut
 * (label-helpers.ts) for the comparison, labelling and diff; a BEIR-mini project made by `rgate
 * init` for the run, history, baseline, closeout, import, probes and upload.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/command.js';
import { createAjv } from '../src/contracts/ajv.js';
import { compiledCli, REPO } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';
import { makeMiniProject } from './label-helpers.js';

const run = promisify(execFile);
const CLI = compiledCli();
const BEIR_MINI = join(REPO, 'test', 'data', 'beir-mini');

interface Printed {
  cmd: string;
  stdout: string;
}

/** The compiled CLI as a child process: bin.cjs, stdout as the process wrote it. */
async function spawned(args: string[], cwd: string): Promise<Printed> {
  const cmd = `rgate ${args.join(' ')}`;
  try {
    const r = await run(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    return { cmd, stdout: r.stdout };
  } catch (e) {
    throw new Error(`${cmd}: ${(e as { stderr?: string }).stderr ?? String(e)}`);
  }
}

/**
 * The compiled CLI in this process: the program bundle bin.cjs loads, its runCli given an io that
 * keeps what it prints. A child process per command cost about a second each (twenty of them); two
 * commands above are run as child processes, which is what bin.cjs adds.
 */
const program = createRequire(import.meta.url)(join(REPO, 'dist', 'src', 'cli', 'program-bundle.cjs')) as {
  runCli(argv: string[], io: CliIo): Promise<number>;
};
async function rgate(args: string[], cwd: string, ok: readonly number[] = [0]): Promise<Printed> {
  const cmd = `rgate ${args.join(' ')}`;
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    color: false,
    isTty: false,
    cwd,
    env: { ...process.env, NO_COLOR: '1', RGATE_SERVER_TOKEN: 'token-for-a-server-that-is-not-there' },
  };
  const code = await program.runCli(args, io);
  if (!ok.includes(code))
    throw new Error(`${cmd}: exit ${code}, expected ${ok.join(' or ')}\n${stderr.join('\n')}`);
  return { cmd, stdout: stdout.join('\n') };
}

/** The problems of `printed` against dist/schemas/<name>.schema.json, one line each: command, JSON path, message. */
function problems(name: string, printed: Printed): string[] {
  const schema = JSON.parse(
    readFileSync(join(REPO, 'dist', 'schemas', `${name}.schema.json`), 'utf8'),
  ) as object;
  let value: unknown;
  try {
    value = JSON.parse(printed.stdout);
  } catch (e) {
    return [`${printed.cmd}: stdout is not one JSON document (${(e as Error).message}): ${printed.stdout}`];
  }
  const validate = createAjv().compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${printed.cmd}: ${name}.schema.json: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

const checked = new Map<string, Printed>();
const failures: string[] = [];
function check(name: string, printed: Printed): unknown {
  checked.set(name, printed);
  failures.push(...problems(name, printed));
  return JSON.parse(printed.stdout) as unknown;
}

const mini = tempDir('rgate-json-mini-');
const beir = tempDir('rgate-json-beir-');
afterAll(() => {
  mini.cleanup();
  beir.cleanup();
});

/** A port nothing listens on: one the OS gave and took back. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function miniChain(): Promise<void> {
  const d = mini.dir;
  makeMiniProject(d);
  check('freeze-result', await rgate(['freeze', 'mini', '--date', '2026-11-01', '--json'], d));
  const session = check(
    'compare-session',
    await rgate(
      ['compare', 'mini', '--set', 'bm25.k1=0.9', '--set', 'bm25.k1=1.6 bm25.b=0.9', '--replays', '1'].concat(
        ['--resamples', '200', '--permutations', '200', '--json'],
      ),
      d,
    ),
  ) as { environment: { session_id: string } };
  check('compare-session-list', await rgate(['compare', '--list', '--json'], d));
  // nothing pending: stdout is still the document (an empty list), the sentence goes to stderr
  check('upload-pending-result', await rgate(['upload', '--pending', '--json'], d));
  const runOf = async () =>
    (check('report', await rgate(['run', 'mini', '--json'], d)) as { environment: { run_id: string } })
      .environment.run_id;
  const before = await runOf();
  const id = session.environment.session_id;
  check('label-queue-result', await rgate(['label', 'queue', id, '--json'], d));
  const items = readFileSync(join(d, '.rgate', 'label', id, 'queue.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 2)
    .map((l) => JSON.parse(l) as { query_id: string; doc_id: string });
  const grades = join(d, 'grades.jsonl');
  writeFileSync(
    grades,
    items
      .map((i, n) => JSON.stringify({ query_id: i.query_id, doc_id: i.doc_id, grade: n, date: '2026-11-23' }))
      .join('\n') + '\n',
  );
  check('label-agree-result', await rgate(['label', 'agree', grades, 'mini', '--json'], d));
  check(
    'label-merge-result',
    await rgate(
      [
        'label',
        'merge',
        'mini',
        grades,
        '--judge',
        'ana',
        '--version',
        'v2',
        '--reset-note',
        'grades',
        '--json',
      ],
      d,
    ),
  );
  // the grades merged changed the query set: the diff has something to say
  check('run-diff', await rgate(['diff', before, await runOf(), '--json'], d));
  check('verify-result', await spawned(['verify', '--json'], d));
}

async function beirChain(): Promise<void> {
  const d = beir.dir;
  check('init-result', await rgate(['init', '--from', 'beir', BEIR_MINI, '--json'], d));
  // one suite named: the report itself (several suites print an array of reports)
  const report = check('report', await rgate(['run', 'retrieval', '--json'], d)) as {
    environment: { run_id: string };
  };
  check('history', await rgate(['history', 'retrieval', '--json'], d));
  check(
    'plan-result',
    await rgate(['plan', 'retrieval', '--measure', 'top1_useful_any_mode', '--effect', '0.2', '--json'], d),
  );
  await rgate(['baseline', 'set', 'retrieval', '--note', 'first'], d);
  check('baseline', await rgate(['baseline', 'show', 'retrieval', '--json'], d));
  check('closeout', await rgate(['closeout', 'retrieval', '--json'], d));
  const server = `http://127.0.0.1:${await closedPort()}`;
  const upload = ['--server', server, '--project', 'ci', '--retries', '0', '--json'];
  // unreachable: exit 3, the run kept pending; then --pending tries it again (still unreachable)
  check('upload-result', await rgate(['upload', report.environment.run_id, ...upload], d, [3]));
  check('upload-pending-result', await rgate(['upload', '--pending', ...upload], d, [3]));
  check(
    'import-result',
    await rgate(
      ['import', 'beir', BEIR_MINI, '--out', 'fixtures/again', '--freeze', '--date', '2026-11-01', '--json'],
      d,
    ),
  );
  check(
    'probes-result',
    await rgate(
      [
        'probes',
        'add',
        'again',
        '--count',
        '1',
        '--version',
        'v2',
        '--reset-note',
        'probes',
        '--date',
        '2026-11-01',
        '--json',
      ],
      d,
    ),
  );

  const qrels = join(d, 'qrels.txt');
  const runFile = join(d, 'run.txt');
  writeFileSync(qrels, 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n');
  writeFileSync(runFile, 'q1 Q0 d2 1 0.9 tag\nq1 Q0 d1 2 0.8 tag\nq2 Q0 d4 1 0.5 tag\n');
  check(
    'score',
    await spawned(['score', '-q', '-m', 'map', '-m', 'relstring', '--format', 'json', qrels, runFile], d),
  );
}

/** `rgate retrieve --json` prints the shape of the mode that answered: each shape once, over the repository's own sets. */
async function retrieveShapes(): Promise<void> {
  const shapes: [string, string[]][] = [
    ['bm25', ['--fixture', 'cacm', '--task', 'time sharing systems', '--k', '3']],
    ['context-load', ['--fixture', 'context-load', '--task', 'gate c closeout', '--mode', 'context-load']],
    ['semantic', ['--fixture', 'context-load', '--task', 'freeze rules', '--mode', 'semantic']],
    [
      'semantic retrieval-result-v1',
      [
        '--fixture',
        'context-load',
        '--task',
        'freeze rules',
        '--mode',
        'semantic',
        '--view',
        'retrieval-result-v1',
      ],
    ],
    [
      'ku',
      ['--fixture', 'ku-runbooks', '--task', 'give me an overview of how releases work', '--mode', 'ku'],
    ],
  ];
  const seen = new Set<string>();
  for (const [, args] of shapes) {
    const out = check('retrieve-output', await rgate(['retrieve', ...args, '--json'], REPO)) as Record<
      string,
      unknown
    >;
    // which of the union's branches answered: a key only that shape has
    seen.add(
      ['mode', 'entries', 'selection_mode', 'results', 'retrievalTrace'].find((k) => k in out) ?? 'none',
    );
  }
  expect([...seen].sort()).toEqual(['entries', 'mode', 'results', 'retrievalTrace', 'selection_mode']);
}

describe('every --json output is a document whose schema ships in dist/schemas/', () => {
  it('each command prints what its schema declares', { timeout: 120_000 }, async () => {
    // both to the end before a failure is thrown: the temp projects are removed after the test
    for (const r of await Promise.allSettled([miniChain(), beirChain(), retrieveShapes()]))
      if (r.status === 'rejected') throw r.reason;
    expect(failures).toEqual([]);
    // every output schema shipped is one a command was checked against here
    expect([...checked.keys()].sort()).toEqual([
      'baseline',
      'closeout',
      'compare-session',
      'compare-session-list',
      'freeze-result',
      'history',
      'import-result',
      'init-result',
      'label-agree-result',
      'label-merge-result',
      'label-queue-result',
      'plan-result',
      'probes-result',
      'report',
      'retrieve-output',
      'run-diff',
      'score',
      'upload-pending-result',
      'upload-result',
      'verify-result',
    ]);
    // and docs/nightly-ci.md's table says which command prints each
    const table = readFileSync(join(REPO, 'docs', 'nightly-ci.md'), 'utf8');
    expect([...checked.keys()].filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});
