import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffReports } from '../history/diff.js';
import { asReport, historyFromStore } from '../history/trends.js';
import { SqliteRunStore } from '../src/store/index.js';
import { compiledCli } from './helpers/dist.js';

/**
 * Two `rgate run` processes writing one history store at the same time lose nothing. The project is
 * compiled (`npm test` builds dist/ first) and each child runs the real `run` command through
 * the real CLI program; then history, diff and baseline read what they stored.
 */
const REPO = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'rgate-two-runs-'));

beforeAll(() => {
  compiledCli();
  const dist = (p: string) => pathToFileURL(join(REPO, 'dist', p)).href;
  // the run command passed explicitly: what `node dist/src/cli/bin.cjs run ...` executes
  writeFileSync(
    join(work, 'rgate-run.mjs'),
    `const { runCli } = await import(${JSON.stringify(dist('src/cli/program.js'))});
const { runCommand } = await import(${JSON.stringify(dist('src/cli/commands/run.js'))});
const io = { out: () => {}, err: (t) => process.stderr.write(t + '\\n'), color: false, isTty: false, cwd: process.cwd(), env: process.env };
process.exitCode = await runCli(process.argv.slice(2), io, [runCommand]);
`,
  );
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function rgateRun(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [join(work, 'rgate-run.mjs'), 'run', ...args], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', rej);
    p.on('close', (code) => res({ code, stderr }));
  });
}

describe('two rgate run processes, one store', () => {
  it('both runs are complete with every observation; history and diff read them back', async () => {
    const db = join(work, 'history.sqlite');
    const common = ['cacm', '--replays', '2', '--store', db, '--out-dir', join(work, 'out')];
    const [a, b] = await Promise.all([
      rgateRun([...common, '--seed', '1']),
      rgateRun([...common, '--seed', '2']),
    ]);
    expect(a.stderr).not.toMatch(/rgate: (internal )?error/);
    expect(b.stderr).not.toMatch(/rgate: (internal )?error/);
    expect([a.code, b.code]).toEqual([0, 0]);

    const store = new SqliteRunStore(db);
    const runs = store.listRuns({ suite: 'cacm' });
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      expect(r.status).toBe('complete');
      // 64 CACM topics x 2 replays, every one stored
      expect(r.observation_count).toBe(128);
      expect(store.getObservations(r.run_id)).toHaveLength(128);
      expect(store.getMetrics(r.run_id).length).toBeGreaterThan(0);
    }
    const h = historyFromStore(store, 'cacm');
    expect(h.runs).toHaveLength(2);
    expect(h.trends.find((t) => t.metric === 'map')!.points.every((p) => p.value !== null)).toBe(true);
    // same config, different replay orders: the rankings do not change
    const [r1, r2] = runs.map((r) => asReport(store.getReport(r.run_id))!);
    const d = diffReports(r1!, r2!);
    expect(d.regressions).toEqual([]);
    expect(d.improvements).toEqual([]);
    expect(d.changed_top1).toEqual([]);
    store.close();
  });
});
