import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFromStore } from '../history/trends.js';
import { SqliteRunStore } from '../src/store/index.js';
import { compiledCli } from './helpers/dist.js';

/**
 * Two rgate processes writing one history file at the same time lose nothing: each child is a real
 * node process using the real SqliteRunStore (compiled here from src/store), writing a run of
 * observations one by one the way runSuite does, then finishing it.
 */
const REPO = resolve(import.meta.dirname, '..');
let work: string;
let storeModule: string;

beforeAll(() => {
  // the children import the store by its absolute URL, which finds better-sqlite3 from dist/ in the
  // repository: the folder they run in need not be the repository's
  work = mkdtempSync(join(tmpdir(), 'rgate-concurrent-'));
  compiledCli();
  storeModule = pathToFileURL(join(REPO, 'dist', 'src', 'store', 'index.js')).href;
  writeFileSync(join(work, 'child.mjs'), CHILD);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const CHILD = `
const [storeModule, dbPath, runId, count] = process.argv.slice(2);
const { SqliteRunStore } = await import(storeModule);
const store = new SqliteRunStore(dbPath);
store.beginRun({ run_id: runId, suite: 'ctx', started_at: '2026-11-22T00:00:00Z', artifacts: { fixture: 'f', artifact_id: 'f@v1', version: 'v1', corpus_id: 'c', corpus_sha256: 's', query_set_id: 'q', query_set_sha256: 's', config_id: 'c', config_sha256: 's' }, settings: { replays: 5, concurrency: 1, seed: 1, relevance_level: 1, restart_between_replays: false } });
const metrics = [{ id: 'top1_useful_rate', value: { kind: 'rate', numerator: 1, denominator: 2, rate: 0.5, wilson95: [0.1, 0.9] }, help: 'h' }];
for (let i = 0; i < Number(count); i++) {
  const replay = 1 + (i % 5);
  const q = 'q' + String(Math.floor(i / 5)).padStart(4, '0');
  store.addObservation(runId, {
    query_id: q, replay, ok: true, ranked: [{ id: 'd' + i, source_path: 'p', score: 1 }],
    fallback: { triggered: false }, usage: { files: 1, chars: 1, tokens: 1 }, latency_ms: 1,
    contract: { name: 'rgate', valid: true, errors: [] }, fingerprint: 'sha256:' + runId + i,
  });
  // yield now and then so the two writers interleave
  if (i % 50 === 0) await new Promise((r) => setImmediate(r));
}
store.finishRun(runId, { status: 'complete', finished_at: '2026-11-22T00:01:00Z', gate_id: 'g', verdict: 'PASS', metrics, report: { runId } });
store.close();
`;

function child(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [join(work, 'child.mjs'), ...args], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', rej);
    p.on('close', (code) => res({ code, stderr }));
  });
}

describe('one history store, two writers at once', () => {
  it('keeps every observation and both finished runs', async () => {
    const db = join(work, 'history.sqlite');
    // the first opening migrates; both children then race on writes, not on schema creation
    new SqliteRunStore(db).close();
    const N = 600;
    const [a, b] = await Promise.all([
      child([storeModule, db, 'run-a', String(N)]),
      child([storeModule, db, 'run-b', String(N)]),
    ]);
    expect(a).toEqual({ code: 0, stderr: '' });
    expect(b).toEqual({ code: 0, stderr: '' });
    const store = new SqliteRunStore(db);
    for (const id of ['run-a', 'run-b']) {
      const row = store.getRun(id)!;
      expect(row.status).toBe('complete');
      expect(row.observation_count).toBe(N);
      expect(new Set(store.getObservations(id).map((o) => o.fingerprint)).size).toBe(N);
      expect(store.getMetrics(id)).toHaveLength(1);
    }
    expect(
      historyFromStore(store, 'ctx')
        .runs.map((r) => r.run_id)
        .sort(),
    ).toEqual(['run-a', 'run-b']);
    store.close();
  });

  it('two processes opening a fresh file at the same moment both migrate it safely', async () => {
    const db = join(work, 'fresh.sqlite');
    const [a, b] = await Promise.all([
      child([storeModule, db, 'x', '20']),
      child([storeModule, db, 'y', '20']),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const store = new SqliteRunStore(db);
    expect(store.getRun('x')?.observation_count).toBe(20);
    expect(store.getRun('y')?.observation_count).toBe(20);
    store.close();
  });
});
