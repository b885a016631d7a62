import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../program.js';
import { INIT_EXAMPLES } from './init.js';
import { captureIo } from '../../../test/helpers/cli-io.js';

const beirMini = resolve(import.meta.dirname, '../../../test/data/beir-mini');
const cacmMini = resolve(import.meta.dirname, '../../../test/data/cacm-mini');
const cranfieldMini = resolve(import.meta.dirname, '../../../test/data/cranfield-mini');
const termOverlap = resolve(import.meta.dirname, '../../../test/sut/term-overlap.mjs');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rgate-init-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(dir);
  const code = await runCli(argv, io);
  const text = (lines: string[]) => lines.map((t) => t + '\n').join('');
  return { code, out: text(io.stdout), err: text(io.stderr) };
}

/** `rgate init` of a command system (`node search.mjs <argv>`) on `data` (`--from beir <folder>`, `--fixture <set>`). */
function commandInit(data: string[], ...argv: string[]): string[] {
  return ['init', ...data, '--system', 'command', '--contract', 'rgate', '--', 'node', 'search.mjs', ...argv];
}

describe('rgate init: flags only, one-line mistakes', () => {
  it('needs data, a contract for a command, an URL for http, a collection folder for trec/smart', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['init'],
        /rgate init needs your data: --from beir\|trec\|smart\|dir\|memory-cli <path>, or --fixture <set>/,
      ],
      [
        ['init', '--fixture', 'context-load', '--system', 'command', '--', 'node', 'x.mjs'],
        /--system command needs --contract/,
      ],
      [
        ['init', '--fixture', 'context-load', '--system', 'command', '--contract', 'rgate'],
        /needs the command after --/,
      ],
      [['init', '--fixture', 'context-load', '--system', 'http'], /--system http needs the endpoint URL/],
      [['init', '--from', 'trec', 'no-such-folder'], /--from trec .*no-such-folder: no such folder/],
      [
        ['init', '--from', 'smart', cacmMini],
        /--from smart .*cacm-mini: no documents found \(looked for a file named \*\.all\*\)/,
      ],
      [
        ['init', '--from', 'beir', beirMini, '--topics', 't.txt'],
        /--topics goes with --from trec, not --from beir/,
      ],
      [
        ['init', '--fixture', 'context-load', '--qrels', 'q.txt'],
        /--qrels goes with --from trec\|smart <folder>/,
      ],
      [['init', '--fixture', 'context-load', '--suite', 'a b'], /--suite "a b": letters, digits/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /); // never a stack
    }
    expect(existsSync(join(dir, 'rgate.config.json'))).toBe(false);
  });

  it('writes a config for an http system on a bundled set with a bundled gate, and refuses to overwrite it', async () => {
    const argv = [
      'init',
      '--fixture',
      'context-load',
      '--gate',
      'context-load-contract-v0',
      '--system',
      'http',
      'http://127.0.0.1:9/retrieve',
      '--contract',
      'context-load-v0',
    ];
    const r = await cli(argv);
    expect(r.code, r.err).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { system: unknown; gate: string; fixture: string }>;
    };
    expect(config.suites['retrieval']).toMatchObject({
      fixture: 'context-load',
      gate: 'context-load-contract-v0',
      system: { type: 'http', url: 'http://127.0.0.1:9/retrieve', contract: 'context-load-v0' },
    });
    // a bundled gate is used as it is: no copy in the project
    expect(existsSync(join(dir, 'gates'))).toBe(false);
    const first = readFileSync(join(dir, 'rgate.config.json'), 'utf8');
    const again = await cli(argv);
    expect(again.code).toBe(2);
    expect(again.err).toContain('rgate init: rgate.config.json already has a suite named retrieval');
    expect(again.err).toContain('--suite <another name> adds one beside it');
    expect(readFileSync(join(dir, 'rgate.config.json'), 'utf8')).toBe(first);
    expect((await cli([...argv, '--force'])).code).toBe(0);
  });

  it(".gitignore: the reports and node_modules appended once, nothing of the team's removed", async () => {
    writeFileSync(join(dir, '.gitignore'), '# ours\ndist\n/node_modules');
    const r = await cli(['init', '--fixture', 'context-load']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/wrote \.gitignore +ignores \.rgate\/runs\/\n/);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('# ours\ndist\n/node_modules\n.rgate/runs/\n');
    expect((await cli(['init', '--fixture', 'ku-runbooks', '--suite', 'ku'])).code).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('# ours\ndist\n/node_modules\n.rgate/runs/\n');
    rmSync(join(dir, '.gitignore'));
    expect((await cli(['init', '--fixture', 'ku-runbooks', '--suite', 'ku2'])).code).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('.rgate/runs/\nnode_modules/\n');
  });

  it('adds a suite to a repository already gating others, keeping them and their defaults', async () => {
    writeFileSync(
      join(dir, 'rgate.config.json'),
      JSON.stringify({
        suites: {
          mine: { fixture: 'context-load', system: { type: 'builtin', mode: 'context-load' } },
          nightly: { fixture: 'ku-runbooks', system: { type: 'builtin', mode: 'ku' } },
        },
        default_suites: ['mine'],
      }),
    );
    const r = await cli(['init', '--from', 'beir', beirMini, '--suite', 'beir']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('suite beir added');
    const config = JSON.parse(readFileSync(join(dir, 'rgate.config.json'), 'utf8')) as {
      suites: Record<string, { system: { mode?: string } }>;
      default_suites: string[];
    };
    expect(Object.keys(config.suites)).toEqual(['mine', 'nightly', 'beir']);
    expect(config.suites['nightly']!.system.mode).toBe('ku');
    expect(config.default_suites).toEqual(['mine', 'beir']);
    // the same name again replaces only with --force, and only that suite
    const clash = await cli(['init', '--fixture', 'context-load', '--suite', 'mine']);
    expect(clash.code).toBe(2);
    expect(clash.err).toContain('already has a suite named mine');
    expect(
      (
        await cli([
          'init',
          '--fixture',
          'ku-runbooks',
          '--suite',
          'mine',
          '--system',
          'builtin',
          'ku',
          '--force',
        ])
      ).code,
    ).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, 'rgate.config.json'), 'utf8')) as typeof config;
    expect(Object.keys(after.suites)).toEqual(['mine', 'nightly', 'beir']);
    expect(after.suites['mine']!.system.mode).toBe('ku');
    expect(after.default_suites).toEqual(['mine', 'beir']);
  });

  it('imports a BEIR folder frozen, and writes a starter gate sized to it', async () => {
    const r = await cli(['init', '--from', 'beir', beirMini, '--ci', 'gitlab', '--min-ndcg', '0.5']);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, 'fixtures', 'retrieval', 'freeze.json'))).toBe(true);
    const gate = JSON.parse(readFileSync(join(dir, 'gates', 'retrieval.gate.json'), 'utf8')) as {
      min_queries: number;
      rules: { metric: string; min?: number }[];
    };
    expect(gate.min_queries).toBe(6);
    expect(gate.rules.find((x) => x.metric === 'ndcg_cut.10')!.min).toBe(0.5);
    expect(existsSync(join(dir, '.gitlab-ci.yml'))).toBe(true);
    expect(r.out).toContain('next:');
  });

  it('a refused import (a document id with a space) leaves nothing behind, and keeps a fixtures/ that was there', async () => {
    const beir = join(dir, 'data');
    cpSync(beirMini, beir, { recursive: true });
    const corpus = readFileSync(join(beir, 'corpus.jsonl'), 'utf8').split('\n');
    const first = JSON.parse(corpus[0]!) as { _id: string };
    corpus[0] = JSON.stringify({ ...first, _id: 'doc one' });
    writeFileSync(join(beir, 'corpus.jsonl'), corpus.join('\n'));
    const project = join(dir, 'p');
    mkdirSync(project);
    const initIn = async () => {
      const io = captureIo(project);
      return { code: await runCli(['init', '--from', 'beir', beir], io), err: io.stderr.join('\n') };
    };
    const r = await initIn();
    expect(r.code).toBe(2);
    expect(r.err).toContain('must be one word');
    expect(readdirSync(project)).toEqual([]);
    mkdirSync(join(project, 'fixtures', 'other'), { recursive: true });
    expect((await initIn()).code).toBe(2);
    expect(readdirSync(join(project, 'fixtures'))).toEqual(['other']);
  });

  it('--from trec: finds topics, qrels and documents in the folder, freezes them, and rgate run gives a verdict', async () => {
    const r = await cli(['init', '--from', 'trec', cacmMini, '--min-ndcg', '0.2']);
    expect(r.code, r.err).toBe(0);
    // the import's counts and its note on the judged ids the documents do not hold are shown
    expect(r.out).toContain('45 corpus records, 6 queries, 6 judged, 25 judgments');
    expect(r.out).toMatch(/qrels\.cacm\.txt: 25 judgment lines over 6 queries/);
    const set = join(dir, 'fixtures', 'retrieval');
    expect(existsSync(join(set, 'freeze.json'))).toBe(true);
    const provenance = readFileSync(join(set, 'PROVENANCE.md'), 'utf8');
    // the command is written as the user could retype it, paths relative to the project
    const produced = /rgate import trec .*/.exec(provenance)![0];
    for (const part of ['--topics ', '--docs ', '--qrels ', '--out fixtures/retrieval'])
      expect(produced).toContain(part);
    expect(produced).toMatch(/ \.\.\/\S*cacm-mini\/topics\.cacm\.txt /);
    expect(provenance).not.toContain(dir);
    const queries = readFileSync(join(set, 'queries.jsonl'), 'utf8').trim().split('\n');
    expect(queries.map((l) => (JSON.parse(l) as { query_id: string }).query_id)).toEqual([
      '1',
      '2',
      '3',
      '6',
      '8',
      '12',
    ]);

    const run = await cli(['run', '--no-store']);
    expect(run.code, run.err).toBe(0);
    expect(run.out.trimEnd().split('\n').at(-1)).toBe('rgate: retrieval PASS -> exit 0 (every gate passed)');
  });

  it('--from smart: a Cranfield slice with positional ids and reversed codes, a command system, and a failing floor', async () => {
    copyFileSync(termOverlap, join(dir, 'search.mjs'));
    const r = await cli([
      'init',
      '--from',
      'smart',
      cranfieldMini,
      '--positional-query-ids',
      '--reverse-grades',
      'max',
      '--min-ndcg',
      '0.99',
      '--system',
      'command',
      '--contract',
      'rgate',
      '--',
      'node',
      'search.mjs',
      '{corpus_dir}',
      '{k}',
      '{query}',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('69 corpus records, 4 queries, 4 judged, 62 judgments');
    expect(r.out).toContain('cranqrel: dropped 4 of 66 lines with a negative code (-1)');
    const queries = readFileSync(join(dir, 'fixtures', 'retrieval', 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { query_id: string; qrels: Record<string, number> });
    // qrels query 3 is the third .I of cran.qry (004); code 1 (complete answer) is the top grade
    expect(queries.map((q) => q.query_id)).toEqual(['001', '002', '004', '008']);
    expect(queries[0]!.qrels['184']).toBe(3); // cranqrel "1 184 2": grade 4 + 1 - 2

    // the floor no term-overlap ranking reaches: the gate fails, with its reason
    const run = await cli(['run', '--no-store']);
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out.trimEnd().split('\n').at(-1)).toMatch(/^rgate: retrieval FAIL -> exit 1/);
    expect(run.out).toMatch(/ndcg_cut\.10/);
  });

  it('--from smart: two candidate query files is a question for the user, not a guess', async () => {
    const folder = join(dir, 'coll');
    mkdirSync(folder);
    for (const f of ['cran.all.1400', 'cran.qry', 'cranqrel'])
      copyFileSync(join(cranfieldMini, f), join(folder, f));
    copyFileSync(join(cranfieldMini, 'cran.qry'), join(folder, 'query.text'));
    const r = await cli(['init', '--from', 'smart', 'coll']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('2 files could be the queries (cran.qry, query.text)');
    expect(r.err).toContain('--queries');
    const ok = await cli([
      'init',
      '--from',
      'smart',
      'coll',
      '--queries',
      'coll/cran.qry',
      '--positional-query-ids',
    ]);
    expect(ok.code, ok.err).toBe(0);
  });

  it('--from trec: a folder whose documents are one file of <DOC> blocks (<top> topics), then rgate run', async () => {
    // written for this test in the shape of a TREC ad hoc collection
    const folder = join(dir, 'robust-mini');
    mkdirSync(folder);
    const docs = [
      [
        'LA010189-0001',
        'Rotating the signing keys',
        'The signing keys are rotated every quarter by the operator.',
      ],
      ['LA010189-0002', 'Context budgets', 'Each profile has a context budget in files and characters.'],
      ['LA010189-0003', 'Retention', 'Decision records are kept for seven years and reviewed yearly.'],
      ['LA010189-0004', 'Release notes', 'What changed in the last release of the retriever.'],
    ];
    writeFileSync(
      join(folder, 'collection.trec'),
      docs
        .map(
          ([no, head, text]) =>
            `<DOC>\n<DOCNO> ${no} </DOCNO>\n<HEADLINE>${head}</HEADLINE>\n<TEXT>\n${text}\n</TEXT>\n</DOC>\n`,
        )
        .join(''),
    );
    writeFileSync(
      join(folder, 'topics.robust-mini.txt'),
      [
        '<top>\n<num> Number: 301\n<title> signing keys rotation\n<desc> Description:\nHow often are keys rotated?\n</top>',
        '<top>\n<num> Number: 302\n<title> decision records retention\n<desc> Description:\nHow long are records kept?\n</top>',
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'qrels.robust-mini.txt'),
      '301 0 LA010189-0001 1\n302 0 LA010189-0003 2\n302 0 LA010189-0004 0\n',
    );
    const r = await cli([
      'init',
      '--from',
      'trec',
      'robust-mini',
      '--topic-field',
      'title+description',
      '--min-ndcg',
      '0.5',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('4 corpus records, 2 queries, 2 judged, 3 judgments');
    expect(r.out).toContain('1 TREC collection file(s) of <DOC> blocks');
    const queries = readFileSync(join(dir, 'fixtures', 'retrieval', 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect((JSON.parse(queries[0]!) as { text: string }).text).toBe(
      'signing keys rotation How often are keys rotated?',
    );
    const run = await cli(['run', '--no-store']);
    expect(run.code, run.err).toBe(0);
    expect(run.out.trimEnd().split('\n').at(-1)).toBe('rgate: retrieval PASS -> exit 0 (every gate passed)');
  });

  it('--from dir without queries: the next steps add judged queries and re-freeze before the run, and they work', async () => {
    const docs = join(dir, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'keys.md'), '# Key rotation\nThe signing keys are rotated every quarter.\n');
    writeFileSync(join(docs, 'retention.md'), '# Retention\nDecision records are kept for seven years.\n');
    const r = await cli(['init', '--from', 'dir', 'docs']);
    expect(r.code, r.err).toBe(0);
    const next = r.out
      .slice(r.out.indexOf('next:'))
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    const steps = next.filter((l) => l.startsWith('npx rgate '));
    expect(steps[0]).toBe(
      'npx rgate import dir docs --queries queries.jsonl --out fixtures/retrieval --freeze --force --version v2 --reset-note "judged queries added"',
    );
    expect(steps[1]).toMatch(/^npx rgate run\b/);
    expect(next.find((l) => l.includes('"query_id"'))).toContain('"qrels"');
    // as printed: the queries file the comment shows, then the import, then the run
    writeFileSync(
      join(dir, 'queries.jsonl'),
      '{"query_id":"q1","text":"how often are the signing keys rotated","qrels":{"keys.md":1}}\n' +
        '{"query_id":"q2","text":"how long are decision records kept","qrels":{"retention.md":1}}\n',
    );
    const args = [...steps[0]!.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(2);
    const imported = await cli(args);
    expect(imported.code, imported.err).toBe(0);
    const run = await cli(['run', '--no-store']);
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out.trimEnd().split('\n').at(-1)).toBe('rgate: retrieval PASS -> exit 0 (every gate passed)');

    // --queries at init, as `rgate import dir` takes it: a set to gate at once
    const again = await cli([
      'init',
      '--from',
      'dir',
      'docs',
      '--queries',
      'queries.jsonl',
      '--suite',
      'docs2',
    ]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).not.toContain('no queries yet');
  });

  it('every `rgate init --help` example works where its data is: init, then a verdict from rgate run', async () => {
    const root = dir;
    for (const [example] of INIT_EXAMPLES) {
      dir = mkdtempSync(join(root, 'example-'));
      // what each example names: a BEIR, TREC and SMART folder, a docs tree, a command retriever
      cpSync(beirMini, join(dir, 'data', 'scifact'), { recursive: true });
      cpSync(cacmMini, join(dir, 'data', 'cacm'), { recursive: true });
      cpSync(cranfieldMini, join(dir, 'data', 'cranfield'), { recursive: true });
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'keys.md'), '# Key rotation\nThe signing keys rotate quarterly.\n');
      copyFileSync(termOverlap, join(dir, 'search.mjs'));
      const init = await cli(example.replace(/^\$0 /, '').split(' '));
      expect(init.code, `${example}\n${init.err}`).toBe(0);
      if (example.includes('--system http')) {
        // no service listens here, and a docs tree has no queries yet: init says what comes first
        expect(init.out).toContain("contract: context-pack (http's default: seed 004's ContextPack)");
        expect(init.out).toContain('npx rgate import dir ./docs --queries queries.jsonl');
        continue;
      }
      const run = await cli(['run', '--no-store']);
      expect(run.code, `${example}\n${run.out}${run.err}`).toBe(0);
      expect(run.out.trimEnd().split('\n').at(-1)).toBe(
        'rgate: retrieval PASS -> exit 0 (every gate passed)',
      );
    }
    dir = root;
  });

  it('refuses at once a placeholder rgate run would refuse, naming it, the known ones and the nearest', async () => {
    const beir = ['--from', 'beir', beirMini];
    const cases: [string[], string[]][] = [
      [
        commandInit(beir, '{qury}'),
        [
          'rgate init --system command: system/argv/2: unknown placeholder {qury}',
          'did you mean {query}? placeholders: {query}, {query_id}, {k}, {corpus_dir}',
        ],
      ],
      [commandInit(beir, '--cfg={conifg.k}'), ['unknown placeholder {conifg.k}', 'did you mean {config.k}?']],
      [commandInit(beir, '{config.no_such_key}'), ['unknown placeholder {config.no_such_key}']],
      // init writes no system params: plain `rgate run` would refuse it
      [commandInit(beir, '{params.mode}'), ['system/argv/2: {params.mode} names no system parameter']],
      [commandInit(beir, '{env.9_TOKEN}'), ['{env.9_TOKEN} is not an environment variable name']],
      [
        ['init', '--fixture', 'context-load', '--system', 'http', 'http://127.0.0.1:9/{k}'],
        ['rgate init --system http: system/url: {k} is not filled in here', 'put a key in a header'],
      ],
    ];
    for (const [argv, parts] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      for (const part of parts) expect(r.err, argv.join(' ')).toContain(part);
      expect(r.err).not.toMatch(/\n\s+at /);
      // refused before the import: nothing written
      expect(readdirSync(dir), argv.join(' ')).toEqual([]);
    }
  });

  it('accepts {config.*} of the config the suite runs with, and {env.NAME} set only where it runs', async () => {
    copyFileSync(termOverlap, join(dir, 'search.mjs'));
    const init = await cli(
      commandInit(['--from', 'beir', beirMini], '{corpus_dir}', '{config.k}', '{query}'),
    );
    expect(init.code, init.err).toBe(0);
    const run = await cli(['run', '--no-store']);
    expect(run.code, run.out + run.err).toBe(0);
    // a secret is checked by name: CI sets it, the laptop running init need not
    const secret = 'RGATE_INIT_TEST_UNSET_SECRET';
    expect(process.env[secret]).toBeUndefined();
    const keyed = await cli([
      ...commandInit(['--fixture', 'context-load', '--suite', 'keyed'], `--token={env.${secret}}`, '{query}'),
    ]);
    expect(keyed.code, keyed.err).toBe(0);
  });

  it('--contract without a command or http system is refused, not ignored', async () => {
    const r = await cli(['init', '--fixture', 'context-load', '--contract', 'rgate']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--contract rgate: the builtin engine has no response contract');
    expect(r.err).toContain('--contract goes with --system command -- <argv> or --system http <url>');
    expect(existsSync(join(dir, 'rgate.config.json'))).toBe(false);
  });

  it('docs/systems.md "TREC and SMART collections": the TREC and SMART commands, each in an empty folder, then rgate run', async () => {
    const readme = readFileSync(resolve(import.meta.dirname, '../../../docs/systems.md'), 'utf8');
    const block = /<!-- init-collections:begin -->\n```sh\n([\s\S]*?)```\n<!-- init-collections:end -->/.exec(
      readme,
    );
    expect(block).not.toBeNull();
    const commands = block![1]!.split('\n').filter((l) => l.startsWith('npx rgate '));
    expect(commands.map((c) => c.split(' ')[4])).toEqual(['trec', 'smart']);
    const root = dir;
    for (const cmd of commands) {
      dir = mkdtempSync(join(root, 'team-'));
      // what the reader brings: the collection folders the commands name
      cpSync(cacmMini, join(dir, 'data', 'cacm'), { recursive: true });
      cpSync(cranfieldMini, join(dir, 'data', 'cranfield'), { recursive: true });
      const init = await cli(cmd.replace(/^npx rgate /, '').split(' '));
      expect(init.code, `${cmd}\n${init.err}`).toBe(0);
      const run = await cli(['run', '--no-store']);
      expect(run.code, `${cmd}\n${run.err}`).toBe(0);
      expect(run.out.trimEnd().split('\n').at(-1)).toBe(
        'rgate: retrieval PASS -> exit 0 (every gate passed)',
      );
    }
    dir = root;
  });
});

/** Every file under `root` with its bytes, so a test can say what a command changed and what it left. */
function filesOf(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const path = join(e.parentPath, e.name);
      files.set(path.slice(root.length + 1), readFileSync(path, 'latin1'));
    }
  return files;
}

describe('rgate init never does something other than what it was asked (#33)', () => {
  const teamArgv = ['node', 'search.mjs', '{corpus_dir}', '{k}', '{query}'];

  it('refuses a command after -- that the suite would not run, writing nothing', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['init', '--fixture', 'context-load', '--', ...teamArgv],
        /the suite would run the builtin engine \(no --system given\)/,
      ],
      [
        ['init', '--fixture', 'context-load', '--system', 'builtin', '--', ...teamArgv],
        /the suite would run the builtin engine$/m,
      ],
      [
        ['init', '--fixture', 'context-load', '--system', 'http', 'http://127.0.0.1:9/r', '--', ...teamArgv],
        /--system http is not a command/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(
        "rgate init: the command after -- (node search.mjs '{corpus_dir}' '{k}' '{query}') would be ignored",
      );
      expect(r.err).toMatch(message);
      expect(r.err).toContain('--system command --contract <contract> -- <argv> runs that command');
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it("the issue's command on a project already set up: refused, every file as it was", async () => {
    expect(
      (await cli(commandInit(['--from', 'beir', beirMini], '{corpus_dir}', '{k}', '{query}'))).code,
    ).toBe(0);
    const before = filesOf(dir);
    const r = await cli(['init', '--fixture', 'retrieval', '--ci', 'gitlab', '--force', '--', ...teamArgv]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain('would be ignored: the suite would run the builtin engine');
    expect(filesOf(dir)).toEqual(before);
  });

  it('--ci alone on a project already set up writes the CI file and nothing else; refuses to overwrite it', async () => {
    expect(
      (await cli(commandInit(['--from', 'beir', beirMini], '{corpus_dir}', '{k}', '{query}'))).code,
    ).toBe(0);
    const before = filesOf(dir);
    const r = await cli(['init', '--ci', 'gitlab']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/only the CI file written/);
    expect(r.out).toMatch(/wrote \.gitlab-ci\.yml +the gitlab CI file/);
    const after = filesOf(dir);
    const template = readFileSync(resolve(import.meta.dirname, '../../../templates/gitlab-ci.yml'), 'latin1');
    expect(after).toEqual(new Map([...before, ['.gitlab-ci.yml', template]]));

    writeFileSync(join(dir, '.gitlab-ci.yml'), '# ours\n');
    const again = await cli(['init', '--ci', 'gitlab']);
    expect(again.code).toBe(2);
    expect(again.err).toContain('rgate init --ci gitlab would overwrite .gitlab-ci.yml');
    expect(readFileSync(join(dir, '.gitlab-ci.yml'), 'utf8')).toBe('# ours\n');
    expect((await cli(['init', '--ci', 'gitlab', '--force'])).code).toBe(0);
    expect(readFileSync(join(dir, '.gitlab-ci.yml'), 'latin1')).toBe(template);

    // a flag that shapes a suite is not silently dropped either
    const gate = await cli(['init', '--ci', 'github', '--gate', 'mine']);
    expect(gate.code).toBe(2);
    expect(gate.err).toContain(
      'rgate init --ci github without --from or --fixture adds only the CI file; --gate would be ignored',
    );
    expect(existsSync(join(dir, '.github'))).toBe(false);
  });

  it('--ci alone where nothing is set up says how to start', async () => {
    const r = await cli(['init', '--ci', 'github']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--ci github alone adds only the CI file to a folder that has rgate.config.json');
    expect(readdirSync(dir)).toEqual([]);
  });
});
