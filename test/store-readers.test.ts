/**
 * Issue 33 item 7: a command that only reads the run history never creates one. A missing or empty
 * `--store` file is an error (exit 2) and the filesystem is as it was: the empty file still 0 bytes,
 * no -wal/-shm beside it, a missing file (and its folder) still absent. Each reader runs as the
 * built CLI, in a folder of its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../src/store/index.js';
import { compiledCli } from './helpers/dist.js';
import { outcome, report, storeRun } from './history-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'rgate-readers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every command that reads the history and writes nothing to it, with --store appended. */
const READERS: string[][] = [
  ['history'],
  ['history', 'ctx', '--format', 'md'],
  ['report', 'r1'],
  ['diff', 'r1', 'r2'],
  ['baseline', 'show', 'ctx'],
  ['label', 'queue', 'r1'],
  ['compare', '--list'],
  ['upload', 'latest', '--server', 'http://127.0.0.1:9', '--project', 'p'],
];

function rgate(cwd: string, argv: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [compiledCli(), ...argv], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, RGATE_SERVER_TOKEN: 'x', NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('readers never create a run history (#33)', () => {
  it('an empty --store file: exit 2 naming it as given, the file still 0 bytes and alone', () => {
    for (const argv of READERS) {
      const cwd = mkdtempSync(join(root, 'empty-'));
      writeFileSync(join(cwd, 'h.sqlite'), '');
      const r = rgate(cwd, [...argv, '--store', 'h.sqlite']);
      expect(r.code, `${argv.join(' ')}\n${r.err}`).toBe(2);
      expect(r.err).toContain('h.sqlite: an empty file, not a run history');
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(readFileSync(join(cwd, 'h.sqlite')).length, argv.join(' ')).toBe(0);
      expect(readdirSync(cwd), argv.join(' ')).toEqual(['h.sqlite']);
    }
  });

  it('a missing --store file: exit 2 (report: no run by that id), nothing made, not even its folder', () => {
    for (const argv of READERS) {
      const cwd = mkdtempSync(join(root, 'missing-'));
      const r = rgate(cwd, [...argv, '--store', 'gone/h.sqlite']);
      expect(r.code, `${argv.join(' ')}\n${r.err}`).toBe(2);
      expect(r.err).toContain(argv[0] === 'report' ? 'r1' : 'no run history at gone/h.sqlite');
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(readdirSync(cwd), argv.join(' ')).toEqual([]);
    }
  });

  it('the default store missing: nothing made (no .rgate/)', () => {
    for (const argv of READERS) {
      const cwd = mkdtempSync(join(root, 'default-'));
      const r = rgate(cwd, argv);
      expect(r.code, `${argv.join(' ')}\n${r.err}`).toBe(2);
      expect(existsSync(join(cwd, '.rgate')), argv.join(' ')).toBe(false);
    }
  });

  it('a real history is read and left byte-identical, with no -wal or -shm beside it', () => {
    const cwd = mkdtempSync(join(root, 'real-'));
    const path = join(cwd, 'h.sqlite');
    const s = new SqliteRunStore(path);
    for (const [id, day] of [
      ['r1', '01'],
      ['r2', '02'],
    ] as const)
      storeRun(s, report({ runId: id, queries: [outcome('q1')] }), { startedAt: `2026-11-${day}T00:00:00Z` });
    s.close();
    const before = readFileSync(path);
    for (const argv of [['history'], ['report', 'r2'], ['diff', 'r1', 'r2'], ['compare', '--list']]) {
      const r = rgate(cwd, [...argv, '--store', 'h.sqlite']);
      expect(r.code, `${argv.join(' ')}\n${r.err}`).toBe(0);
      expect(readFileSync(path).equals(before), argv.join(' ')).toBe(true);
      expect(readdirSync(cwd), argv.join(' ')).toEqual(['h.sqlite']);
    }
  });
});
