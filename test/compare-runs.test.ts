import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CompareSession } from '../src/documents/index.js';
import type { CliIo } from '../src/cli/command.js';
import { runCli } from '../src/cli/program.js';
import { tempDir } from './history-helpers.js';

/**
 * Real comparisons: `rgate compare` on the bundled CACM suite (builtin BM25 engine, 64 judged
 * topics), every variant replayed by runSuite on the same pinned snapshot.
 */
const REPO = resolve(import.meta.dirname, '..');
const t = tempDir('rgate-compare-');
afterAll(() => t.cleanup());

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    out: (s) => stdout.push(s),
    err: (s) => stderr.push(s),
    color: false,
    isTty: false,
    cwd: REPO,
    env: {},
    stdout,
    stderr,
  };
}

describe('rgate compare on real runs', () => {
  it('two identical configs: no significant difference on any metric, no flip, no winner', async () => {
    const io = capture();
    const code = await runCli(
      [
        'compare',
        'cacm',
        '--set',
        'bm25.k1=0.9',
        '--set',
        'bm25.k1=0.9 bm25.b=0.4',
        '--replays',
        '1',
        '--permutations',
        '2000',
        '--json',
        '--no-save',
      ],
      io,
    );
    expect(io.stderr.filter((l) => /error/i.test(l))).toEqual([]);
    expect(code).toBe(0);
    const s = JSON.parse(io.stdout.join('\n')) as CompareSession;
    expect(s.variants.map((v) => v.label)).toEqual(['bm25.k1=0.9', 'bm25.k1=0.9 bm25.b=0.4']);
    expect(s.metrics.map((m) => m.id)).toEqual(expect.arrayContaining(['map', 'ndcg_cut.10']));
    expect(s.tests.length).toBeGreaterThan(0);
    for (const test of s.tests) {
      expect(test.n).toBeGreaterThan(0);
      expect(test.significant).toBe(false);
      expect(test.mean_delta).toBe(0);
    }
    expect(s.winners.every((w) => w.winner === null)).toBe(true);
    expect(s.flips[0]!.queries).toEqual([]);
  });

  it('a sweep charts each metric over the grid, is stored, listed and re-rendered', async () => {
    const io = capture();
    const outDir = join(t.dir, '.rgate');
    const code = await runCli(
      [
        'compare',
        'cacm',
        '--sweep',
        'bm25.k1=0.2:1.8:0.8',
        '--replays',
        '1',
        '--permutations',
        '2000',
        '--out-dir',
        outDir,
        '--format',
        'md',
      ],
      io,
    );
    expect(code).toBe(0);
    const md = io.stdout.join('\n');
    expect(md).toContain('grid points of `bm25.k1`');
    const id = /session (cmp-\S+) stored/.exec(io.stderr.join('\n'))![1]!;
    const dir = join(outDir, 'compare', id);
    const s = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as CompareSession;
    expect(s.kind).toBe('sweep');
    expect(s.variants.map((v) => v.sweep_value)).toEqual([0.2, 1, 1.8]);
    // 3 grid points -> 3 pairs per metric, all Holm-corrected together
    expect(s.tests.length).toBe(3 * s.metrics.length);
    // a winner is only ever named with a Holm-significant test against every other point
    for (const w of s.winners.filter((x) => x.winner)) {
      const mine = s.tests.filter((x) => x.metric === w.metric && (x.a === w.winner || x.b === w.winner));
      expect(mine.every((x) => x.significant)).toBe(true);
    }
    const page = readFileSync(join(dir, 'session.html'), 'utf8');
    expect(page).toContain('<canvas id="sweep-0"');
    expect(page).toContain('<canvas id="deltas"');
    expect(existsSync(join(dir, 'session.md'))).toBe(true);

    const list = capture();
    expect(await runCli(['compare', '--list', '--out-dir', outDir], list)).toBe(0);
    expect(list.stdout.join('\n')).toContain(id);
    const show = capture();
    expect(await runCli(['compare', '--show', id, '--out-dir', outDir, '--json'], show)).toBe(0);
    expect(JSON.parse(show.stdout.join('\n'))).toEqual(s);
  });

  it('refuses a comparison with one variant', async () => {
    const io = capture();
    expect(await runCli(['compare', 'cacm', '--set', 'bm25.k1=0.9', '--no-save'], io)).toBe(2);
    expect(io.stderr.join('\n')).toContain('a comparison needs at least two variants (got 1)');
  });

  it('a history it cannot use stops the comparison before its first request', async () => {
    const dir = join(t.dir, 'unusable');
    const history = join(dir, 'history.sqlite');
    mkdirSync(dir);
    writeFileSync(history, 'not a database\n');
    const progress = vi.spyOn(process.stderr, 'write');
    try {
      const io = capture();
      const args = ['compare', 'cacm', '--set', 'bm25.k1=0.9', '--set', 'bm25.k1=1.2', '--replays', '1'];
      expect(await runCli([...args, '--store', history, '--out-dir', join(dir, 'out')], io)).toBe(2);
      expect(io.stderr.join('\n')).toContain(`run history ${history} is not an SQLite database`);
      // no variant ran: the progress line of a replay was never written
      expect(progress.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('replay'))).toEqual([]);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    } finally {
      progress.mockRestore();
    }
  });
});
