import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../documents/index.js';
import { OBSERVATION_BATCH, SqliteRunStore } from './sqlite-store.js';
import { ARTIFACTS, SETTINGS } from '../../test/helpers/run-rows.js';
import { until } from '../../test/helpers/clock.js';
import { compiledCli, REPO } from '../../test/helpers/dist.js';

function obs(i: number): Observation {
  return {
    query_id: `q${String(i).padStart(4, '0')}`,
    replay: 1,
    ok: true,
    ranked: [{ id: `d${i}`, source_path: `p/${i}.md`, score: 1 }],
    fallback: { triggered: false },
    usage: { files: 1, chars: 10, tokens: 3 },
    latency_ms: 1,
    contract: { name: 'rgate', valid: true, errors: [] },
    fingerprint: `sha256:${i}`,
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function history(): string {
  const d = mkdtempSync(join(tmpdir(), 'rgate-batch-'));
  dirs.push(d);
  return join(d, 'history.sqlite');
}

/** What another process reading the file sees: committed rows only. */
function committed(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM observations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A store whose time bound is `batchMs` (an hour: only the count and the other triggers commit). */
function begun(path: string, batchMs = 3_600_000): SqliteRunStore {
  const s = new SqliteRunStore(path, { batchMs });
  s.beginRun({
    run_id: 'r1',
    suite: 's',
    started_at: '2026-11-26T00:00:00Z',
    artifacts: ARTIFACTS,
    settings: SETTINGS,
  });
  return s;
}

describe('SqliteRunStore writes observations in bounded batches', () => {
  it('commits a full batch at once, and what is waiting before any read of its own', () => {
    const path = history();
    const s = begun(path);
    for (let i = 0; i < OBSERVATION_BATCH - 1; i++) s.addObservation('r1', obs(i));
    expect(committed(path)).toBe(0);
    s.addObservation('r1', obs(OBSERVATION_BATCH - 1));
    expect(committed(path)).toBe(OBSERVATION_BATCH);
    s.addObservation('r1', obs(OBSERVATION_BATCH));
    expect(s.getObservations('r1')).toHaveLength(OBSERVATION_BATCH + 1);
    expect(committed(path)).toBe(OBSERVATION_BATCH + 1);
    s.close();
  });

  it('commits a partial batch once its time bound passes, with nothing else happening', async () => {
    const path = history();
    const s = begun(path, 50);
    s.addObservation('r1', obs(1));
    await until(
      () => committed(path) === 1,
      () => `1 row committed (${committed(path)} are)`,
    );
    s.close();
  });

  it('commits with the run result, and on close', () => {
    const path = history();
    const s = begun(path);
    s.addObservation('r1', obs(1));
    s.finishRun('r1', { status: 'complete', finished_at: '2026-11-26T00:01:00Z', metrics: [] });
    expect(committed(path)).toBe(1);
    s.addObservation('r1', obs(2));
    s.close();
    expect(committed(path)).toBe(2);
  });

  it('commits what is waiting when the process exits without closing the store (a forced exit)', () => {
    compiledCli(); // dist/ is built
    const path = history();
    const store = pathToFileURL(join(REPO, 'dist', 'src', 'store', 'sqlite-store.js')).href;
    const script = [
      `import { SqliteRunStore } from ${JSON.stringify(store)};`,
      `const s = new SqliteRunStore(${JSON.stringify(path)});`,
      `s.beginRun({ run_id: 'r1', suite: 's', started_at: 'x', artifacts: ${JSON.stringify(ARTIFACTS)}, settings: ${JSON.stringify(SETTINGS)} });`,
      `const o = ${JSON.stringify(obs(0))};`,
      `for (let i = 0; i < 3; i++) s.addObservation('r1', { ...o, query_id: 'q' + i });`,
      `process.exit(0);`,
    ].join('\n');
    const p = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(p.stderr).toBe('');
    expect(p.status).toBe(0);
    expect(committed(path)).toBe(3);
  });
});
