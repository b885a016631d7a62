import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../command.js';
import { compiledCli } from '../../../test/helpers/dist.js';
import { runCli } from '../program.js';
import { scoreCommand } from './score.js';
import { parseQrels, parseRun } from '../../trec/index.js';

const fixtures = resolve(import.meta.dirname, '../../../fixtures/trec_eval');
const dir = mkdtempSync(join(tmpdir(), 'rgate-score-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (t) => (out += t.endsWith('\n') ? t : t + '\n'),
    err: (t) => (err += t.endsWith('\n') ? t : t + '\n'),
    color: false,
    isTty: false,
    cwd: dir,
    env: {},
  };
  const code = await runCli(argv, io, [scoreCommand]);
  return { code, out, err };
}

describe('rgate score', () => {
  it("prints trec_eval's default (official) output byte for byte", async () => {
    const r = await cli(['score', join(fixtures, 'qrels.test'), join(fixtures, 'results.test')]);
    expect(r.code).toBe(0);
    const expected = readFileSync(join(fixtures, 'out.test'), 'utf8')
      .split('\n')
      .filter((l) =>
        /^(runid|num_q|num_ret|num_rel|num_rel_ret|map|gm_map|Rprec|bpref|recip_rank|iprec_at_recall_[0-9.]+|P_\d+) /.test(
          l,
        ),
      );
    expect(r.out.trimEnd().split('\n')).toEqual(expected);
  });

  // trec_eval's own Makefile test commands (glued -mX as written there), each output byte for byte
  const MAKEFILE: [string, string[]][] = [
    ['out.test.a', ['-m', 'all_trec', 'qrels.test', 'results.test']],
    ['out.test.aq', ['-m', 'all_trec', '-q', 'qrels.test', 'results.test']],
    ['out.test.aqc', ['-m', 'all_trec', '-q', '-c', 'qrels.test', 'results.trunc']],
    ['out.test.aqcM', ['-m', 'all_trec', '-q', '-c', '-M100', 'qrels.test', 'results.trunc']],
    ['out.test.aql', ['-m', 'all_trec', '-mrelstring.20', '-q', '-l2', 'qrels.rel_level', 'results.test']],
    [
      'out.test.meas_params',
      [
        '-q',
        '-miprec_at_recall..10,.20,.25,.75,.50',
        '-m',
        'P.5,7,3',
        '-m',
        'recall.20,2000',
        '-m',
        'Rprec_mult.5.0,0.2,0.35',
        '-mutility.2,-1,0,0',
        '-m',
        '11pt_avg..25,.5,.75',
        '-mndcg.1=3,2=9,4=4.5',
        '-mndcg_cut.10,20,23.4',
        '-msuccess.2,5,20',
        'qrels.test',
        'results.test',
      ],
    ],
  ];
  for (const [out, args] of MAKEFILE) {
    it(`${out}: trec_eval's whole output byte for byte (relstring, rbp included)`, async () => {
      const files = new Set(['qrels.test', 'qrels.rel_level', 'results.test', 'results.trunc']);
      const r = await cli(['score', ...args.map((a) => (files.has(a) ? join(fixtures, a) : a))]);
      expect(r.err).toBe('');
      expect(r.out).toBe(readFileSync(join(fixtures, out), 'utf8'));
    });
  }

  // trec_eval 10's nicknames (measures.c te_trec_measure_nicknames); set is a subset of all_trec, so
  // its lines are out.test.a's and out.test.aq's lines of its measures, in the same order
  const SET =
    /^(runid|num_q|num_ret|num_rel|num_rel_ret|utility|set_P|set_recall|set_relative_P|set_map|set_F) /;
  for (const [out, flags] of [
    ['out.test.a', []],
    ['out.test.aq', ['-q']],
  ] as const) {
    it(`-m set ${flags.join(' ')}: the set measures of ${out}, byte for byte`, async () => {
      const r = await cli([
        'score',
        ...flags,
        '-m',
        'set',
        join(fixtures, 'qrels.test'),
        join(fixtures, 'results.test'),
      ]);
      expect(r.err).toBe('');
      const expected = readFileSync(join(fixtures, out), 'utf8')
        .split('\n')
        .filter((l) => SET.test(l));
      // runid and num_q are summary lines only
      expect(expected.length).toBe(flags.length ? 11 + 3 * 9 : 11);
      expect(r.out).toBe(expected.join('\n') + '\n');
    });
  }

  it('refuses the preference and judgment-group nicknames and measures, naming the first as trec_eval would', async () => {
    const files = [join(fixtures, 'qrels.test'), join(fixtures, 'results.test')];
    const cases: [string[], string][] = [
      [['-m', 'prefs'], '-m prefs: its measure prefs_num_prefs_poss needs preference judgments'],
      [['-m', 'all_prefs'], '-m all_prefs: its measure prefs_num_prefs_poss needs preference judgments'],
      [
        ['-m', 'qrels_jg'],
        '-m qrels_jg: its measure map_avgjg needs judgment groups (trec_eval -R qrels_jg)',
      ],
      // trec_eval computes prefs_simp before P_avgjg, and stops at it
      [['-m', 'P_avgjg', '-m', 'prefs_simp'], '-m prefs_simp: prefs_simp needs preference judgments'],
      [['-m', 'map_avgjg.3'], '-m map_avgjg.3: map_avgjg needs judgment groups'],
      [
        ['-m', 'official.5'],
        '-m official.5: official is a nickname for a list of measures and takes no parameters',
      ],
      [['-m', 'set.'], '-m set.: nothing after the dot'],
      [['-m', 'P.'], '-m P.: nothing after the dot'],
      [['-m', 'runid.x'], '-m runid.x: runid takes no parameters'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['score', ...args, ...files]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(message);
    }
    const prefs = await cli(['score', '-m', 'prefs', ...files]);
    expect(prefs.err).toContain(
      `trec_eval 10 stops too ("Can't calculate measure 'prefs_num_prefs_poss'", exit 4)`,
    );
  });

  it('without -c stops at a judged query the run has no line for, as trec_eval 10 does; -c scores it 0', async () => {
    for (const flags of [[], ['-q'], ['-q', '-J']]) {
      const r = await cli([
        'score',
        ...flags,
        '-m',
        'map',
        join(fixtures, 'qrels.test'),
        join(fixtures, 'results.trunc'),
      ]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(
        `rgate: error: query 302 is judged in ${join(fixtures, 'qrels.test')} but has no line in ${join(fixtures, 'results.trunc')}\n`,
      );
      expect(r.err).toContain(`pass -c to score it 0`);
      expect(r.err).toContain(`trec_eval 10 stops here too ("result qid '302' not found in qrels", exit 4)`);
    }
    const q = join(dir, 'three-missing.qrels');
    writeFileSync(q, '1 0 a 1\n2 0 a 1\n3 0 a 1\n4 0 a 1\n');
    writeFileSync(join(dir, 'one.run'), '3 Q0 a 1 1 r\n');
    const many = await cli(['score', q, join(dir, 'one.run')]);
    expect(many.err).toContain(
      `query 1 is judged in ${q} but has no line in ${join(dir, 'one.run')} (and 2 more judged queries)`,
    );
    const c = await cli(['score', '-c', '-m', 'map', '-m', 'num_q', q, join(dir, 'one.run')]);
    expect(c.code).toBe(0);
    expect(c.out).toBe('num_q                 \tall\t4\nmap                   \tall\t0.2500\n');
  });

  it('-q -c -M with --qrels/--run prints per-query lines then all (as out.test.aqcM)', async () => {
    const r = await cli([
      'score',
      '--qrels',
      join(fixtures, 'qrels.test'),
      '--run',
      join(fixtures, 'results.trunc'),
      '-q',
      '-c',
      '-M',
      '100',
      '-m',
      'num_ret',
      '-m',
      'P.5',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        'num_ret               \t301\t100',
        'P_5                   \t301\t0.0000',
        'num_ret               \t302\t0',
        'P_5                   \t302\t0.0000',
        'num_ret               \t303\t84',
        'P_5                   \t303\t0.6000',
        'num_ret               \tall\t184',
        'P_5                   \tall\t0.2000',
        '',
      ].join('\n'),
    );
  });

  it('--format json carries full-precision numbers', async () => {
    const r = await cli([
      'score',
      '--format',
      'json',
      '-m',
      'map',
      join(fixtures, 'qrels.test'),
      join(fixtures, 'results.test'),
    ]);
    const j = JSON.parse(r.out);
    expect(j.run_id).toBe('STANDARD');
    expect(j.num_q).toBe(3);
    expect(j.all.map).toBeCloseTo(0.1785, 4);
    expect(j.settings).toEqual({
      relevance_level: 1,
      complete: false,
      docs_in_collection: 0,
      judged_only: false,
      max_depth: null,
    });
  });

  it('--list-measures prints each definition and its source', async () => {
    const r = await cli(['score', '--list-measures']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('ndcg_cut (default parameters: 5,10,15,20,30,100,200,500,1000)');
    expect(r.out).toContain('Source: trec_eval m_map.c');
  });

  it('a malformed run line exits 2 with file:line and a hint', async () => {
    const run = join(dir, 'bad.run');
    writeFileSync(run, '301 Q0 a 1 1.0 r\n301 Q0 b 2\n');
    const r = await cli(['score', join(fixtures, 'qrels.test'), run]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('bad.run:2: expected 6 fields, found 4');
    expect(r.err).toContain('hint: a run line is');
  });

  it('usage mistakes exit 2: unknown measure, missing files, bad depth', async () => {
    expect(
      (
        await cli([
          'score',
          '-m',
          'no_such_measure',
          join(fixtures, 'qrels.test'),
          join(fixtures, 'results.test'),
        ])
      ).code,
    ).toBe(2);
    expect((await cli(['score', '--qrels', join(fixtures, 'qrels.test')])).code).toBe(2);
    const missing = await cli(['score', join(dir, 'none.qrels'), join(fixtures, 'results.test')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such file');
    expect(
      (await cli(['score', '-M', '-3', join(fixtures, 'qrels.test'), join(fixtures, 'results.test')])).code,
    ).toBe(2);
  });

  it('-J measures over judged documents only: as if unjudged lines were not in the run', async () => {
    const qrels = readFileSync(join(fixtures, 'qrels.test'), 'utf8');
    const judged = new Set(
      qrels
        .split('\n')
        .map((l) => l.split(/\s+/))
        .filter((f) => f.length >= 4 && Number(f[3]) >= 0)
        .map((f) => `${f[0]} ${f[2]}`),
    );
    const lines = readFileSync(join(fixtures, 'results.test'), 'utf8').split('\n').filter(Boolean);
    const kept = lines.filter((l) => {
      const f = l.split(/\s+/);
      return judged.has(`${f[0]} ${f[2]}`);
    });
    expect(kept.length).toBeLessThan(lines.length);
    writeFileSync(join(dir, 'judged.run'), kept.join('\n') + '\n');
    const m = ['-m', 'all_trec', '-q'];
    const j = await cli(['score', '-J', ...m, join(fixtures, 'qrels.test'), join(fixtures, 'results.test')]);
    const f = await cli(['score', ...m, join(fixtures, 'qrels.test'), join(dir, 'judged.run')]);
    expect(j.code).toBe(0);
    expect(j.out).toBe(f.out);
    const plain = await cli(['score', ...m, join(fixtures, 'qrels.test'), join(fixtures, 'results.test')]);
    expect(j.out).not.toBe(plain.out);
  });

  it('reads the run from a named pipe, and refuses - for both files', async () => {
    const fifo = join(dir, 'results.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', join(fixtures, 'results.test'), fifo], {
      stdio: 'ignore',
    });
    const viaPipe = await cli(['score', '-m', 'map', join(fixtures, 'qrels.test'), fifo]);
    writer.kill();
    const viaFile = await cli([
      'score',
      '-m',
      'map',
      join(fixtures, 'qrels.test'),
      join(fixtures, 'results.test'),
    ]);
    expect(viaPipe).toEqual(viaFile);
    const both = await cli(['score', '-', '-']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('cannot both be read from stdin');
    const flags = await cli(['score', '--qrels', '-', '--run', '-']);
    expect(flags.err).toContain('cannot both be read from stdin');
    const typo = await cli(['score', '--mesure', 'map', 'q', 'r']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('Unknown argument: --mesure');
  });

  it('accepts # comment lines; names empty files, duplicate qrels lines, bad lines (exit 2, no stack)', async () => {
    const q = join(dir, 'c.qrels');
    const r = join(dir, 'c.run');
    writeFileSync(q, '# judged by hand\n1 0 a 1\n# a comment\n1 0 b 0\n');
    writeFileSync(r, '# run header\n1 Q0 a 1 2 run\n  # indented comment\n1 Q0 b 2 1 run\n');
    const ok = await cli(['score', '-m', 'P.1', q, r]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^P_1\s+all\s+1\.0000$/m);
    // trec_eval 10 reads an indented "#" in qrels as a judgment: "Malformed line" here
    writeFileSync(q, '# judged by hand\n1 0 a 1\n  # indented comment\n1 0 b 0\n');
    const indented = await cli(['score', '-m', 'P.1', q, r]);
    expect(indented.code).toBe(2);
    expect(indented.err).toContain(`${q}:3: a "#" after blanks is not a comment`);
    writeFileSync(q, '# judged by hand\n1 0 a 1\n# a comment\n1 0 b 0\n');
    writeFileSync(join(dir, 'qrels.txt'), '');
    const empty = await cli(['score', join(dir, 'qrels.txt'), r]);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('qrels.txt: empty file: no judgments');
    writeFileSync(join(dir, 'empty.run'), '');
    expect((await cli(['score', q, join(dir, 'empty.run')])).err).toContain(
      'empty.run: empty file: no results',
    );
    writeFileSync(join(dir, 'dup.qrels'), '1 0 a 1\n1 0 b 0\n1 0 a 0\n');
    const dup = await cli(['score', join(dir, 'dup.qrels'), r]);
    expect(dup.code).toBe(2);
    expect(dup.err).toContain('dup.qrels:3: query 1 judges document a twice (first at line 1)');
    writeFileSync(join(dir, 'bad.qrels'), '1 0 a 1\n1 0 b\n');
    const bad = await cli(['score', join(dir, 'bad.qrels'), r]);
    expect(bad.err).toContain('bad.qrels:2: expected 4 fields, found 3');
    for (const e of [empty, dup, bad]) expect(e.err).not.toMatch(/\n\s+at /);
  });

  it('names a file as the user gave it, so same-named files in two folders can be told apart', async () => {
    for (const sub of ['a', 'b']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'a', 'run.txt'), '1 Q0 a 1 2 run\n');
    writeFileSync(join(dir, 'b', 'run.txt'), '1 Q0 a 1 2 run\n1 Q0 b 2\n');
    writeFileSync(join(dir, 'a', 'qrels.txt'), '1 0 a 1\n2 0 a 1\n');
    const bad = await cli(['score', 'a/qrels.txt', 'b/run.txt']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('rgate: error: b/run.txt:2: expected 6 fields, found 4');
    const missing = await cli(['score', 'a/qrels.txt', 'a/run.txt']);
    expect(missing.err).toContain('query 2 is judged in a/qrels.txt but has no line in a/run.txt');
    expect((await cli(['score', 'a/qrels.txt', 'c/run.txt'])).err).toContain('c/run.txt: no such file');
    // a process substitution is /dev/fd/N, not "N"
    const sub = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${compiledCli()}" score a/qrels.txt <(printf '1 Q0 a 1\\n')`],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(sub.status).toBe(2);
    expect(sub.stderr).toMatch(/rgate: error: \/dev\/fd\/\d+:1: expected 6 fields, found 4/);
  });

  it('refuses a TREC file that starts with a UTF-8 BOM, naming it (trec_eval would misread line 1)', async () => {
    const BOM = '\uFEFF';
    writeFileSync(join(dir, 'plain.qrels'), '1 0 a 1\n');
    writeFileSync(join(dir, 'plain.run'), '1 Q0 a 1 2 run\n');
    writeFileSync(join(dir, 'bom.qrels'), BOM + '1 0 a 1\n');
    writeFileSync(join(dir, 'bom.run'), BOM + '1 Q0 a 1 2 run\n');
    expect((await cli(['score', 'plain.qrels', 'plain.run'])).code).toBe(0);
    for (const argv of [
      ['score', 'bom.qrels', 'plain.run'],
      ['score', 'plain.qrels', 'bom.run'],
    ]) {
      const file = argv.find((a) => a.startsWith('bom.'))!;
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(
        `rgate: error: ${file}:1: starts with a UTF-8 byte order mark (bytes EF BB BF)`,
      );
      expect(r.err).toContain('hint: save the file as UTF-8 without a BOM');
    }
    // through a pipe too, and from the library readers
    const piped = spawnSync(process.execPath, [compiledCli(), 'score', 'plain.qrels', '-'], {
      cwd: dir,
      input: BOM + '1 Q0 a 1 2 run\n',
      encoding: 'utf8',
    });
    expect(piped.status).toBe(2);
    expect(piped.stderr).toContain('stdin:1: starts with a UTF-8 byte order mark');
    expect(() => parseRun(Buffer.from(BOM + '1 Q0 a 1 2 run\n'), 'mem')).toThrow(
      'mem:1: starts with a UTF-8',
    );
    expect(() => parseQrels(Buffer.from(BOM + '1 0 a 1\n'), 'mem')).toThrow('mem:1: starts with a UTF-8');
  });

  it('reads - from stdin, positional or --run - (compiled CLI: CliIo has no stdin)', () => {
    const input = readFileSync(join(fixtures, 'results.test'));
    const qrels = join(fixtures, 'qrels.test');
    const run = (args: string[]): string =>
      execFileSync(process.execPath, [compiledCli(), 'score', '-m', 'map', ...args], {
        input,
        encoding: 'utf8',
      });
    const expected = run([qrels, join(fixtures, 'results.test')]);
    expect(expected).toMatch(/^map\s+all\s+0\.1785/);
    expect(run([qrels, '-'])).toBe(expected);
    expect(run(['--qrels', qrels, '--run', '-'])).toBe(expected);
    expect(run([qrels, '/dev/stdin'])).toBe(expected);
  });

  it('--help says where rgate knowingly differs from trec_eval 10', () => {
    // yargs ends the process after help, so this one runs the compiled CLI
    const help = execFileSync(process.execPath, [compiledCli(), 'score', '--help'], { encoding: 'utf8' });
    expect(help).toContain('knowingly differs from trec_eval 10');
    expect(help).toMatch(/-J, --judged-only/);
    // each difference as trec_eval 10 behaves (checked against its source and a build of it)
    expect(help).toContain(`"result qid '<qid>' not found in qrels",\n  exit 4`);
    expect(help).toContain(
      'trec_eval reads them with atof and\n  atol: 12.5, NaN, infinity, infinity, 16; 1, 0.',
    );
    expect(help).toContain(
      'official (the default), set, all_trec; all_prefs, prefs and\nqrels_jg are refused',
    );
    expect(help).toContain('- Qrels comments: trec_eval 10 reads a # after blanks, and a comment line right');
    expect(help).toContain('trec_eval stops on one only in a judged query, among its top -M results.');
    // written to fit 80 columns, so yargs does not re-wrap it mid-sentence
    const epilog = help.slice(help.indexOf('Options are read as trec_eval'));
    for (const line of epilog.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
