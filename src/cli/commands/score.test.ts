import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../command.js';
import { runCli } from '../program.js';
import { scoreCommand } from './score.js';

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
      .filter((l) => /^(runid|num_q|num_ret|num_rel|num_rel_ret|map|Rprec|bpref|recip_rank|P_\d+) /.test(l));
    expect(r.out.trimEnd().split('\n')).toEqual(expected);
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
    expect(j.settings).toEqual({ relevance_level: 1, complete: false, max_depth: null });
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
      (await cli(['score', '-m', 'gm_map', join(fixtures, 'qrels.test'), join(fixtures, 'results.test')]))
        .code,
    ).toBe(2);
    expect((await cli(['score', '--qrels', join(fixtures, 'qrels.test')])).code).toBe(2);
    const missing = await cli(['score', join(dir, 'none.qrels'), join(fixtures, 'results.test')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such file');
    expect(
      (await cli(['score', '-M', '-3', join(fixtures, 'qrels.test'), join(fixtures, 'results.test')])).code,
    ).toBe(2);
  });
});
