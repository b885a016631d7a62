import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../harness/run-suite.js';
import { writeFreeze } from '../../src/snapshot/index.js';
import { SqliteRunStore } from '../../src/store/index.js';

/**
 * The soak (issue 12): 10,000 queries x 3 replays against a loopback HTTP system at concurrency 16,
 * into a real SQLite history. Checks that no observation is lost, that memory is flat in the second
 * half, and records throughput, peak memory and the history file's growth per run in
 * benchmarks/results/soak.json. `npm run soak`; sizes can be cut with SOAK_QUERIES / SOAK_REPLAYS.
 */
// the live heap after a full collection is what a leak grows; without one, heapUsed swings with GC timing
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const QUERIES = Number(process.env.SOAK_QUERIES ?? 10_000);
const REPLAYS = Number(process.env.SOAK_REPLAYS ?? 3);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 16);
const DOCS = 2000;
const REPO = resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'rgate-soak-'));
let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

function fixture(): string {
  const dir = join(tmp, 'fixtures', 'soak');
  mkdirSync(dir, { recursive: true });
  const words = [
    'memory',
    'paging',
    'compiler',
    'parser',
    'cache',
    'index',
    'query',
    'ranking',
    'token',
    'graph',
  ];
  const corpus: string[] = [];
  for (let d = 0; d < DOCS; d++) {
    const text = Array.from({ length: 12 }, (_, i) => words[(d * 7 + i * 3) % words.length]).join(' ');
    corpus.push(
      JSON.stringify({
        id: `d${d}`,
        source_path: `docs/d${d}.md`,
        text,
        kind: 'canonical',
        captured_at: '2026-01-01T00:00:00Z',
      }),
    );
  }
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.join('\n') + '\n');
  const queries: string[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const text = `${words[q % 10]} ${words[(q * 3) % 10]} ${words[(q * 7) % 10]} ${q}`;
    queries.push(
      JSON.stringify({
        query_id: `q${String(q).padStart(5, '0')}`,
        text,
        qrels: { [`d${(q * 13) % DOCS}`]: 1 },
      }),
    );
  }
  writeFileSync(join(dir, 'queries.jsonl'), queries.join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'bm25', k: 10 }));
  writeFreeze(dir, { frozenOn: '2026-11-23' });
  return tmp;
}

async function startServer(): Promise<string> {
  server = spawn(process.execPath, [join(REPO, 'test', 'soak', 'soak-server.mjs')], {
    env: { PATH: process.env.PATH ?? '', SOAK_DOCS: String(DOCS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    server!.stdout!.once('data', (d: Buffer) => done(d.toString().trim()));
    server!.once('error', fail);
  });
}

describe('soak: 10k queries x 3 replays over loopback HTTP at concurrency 16', () => {
  it('loses no observation, keeps memory flat in the second half, and records its figures', async () => {
    const root = fixture();
    const url = await startServer();
    const storePath = join(tmp, 'history.sqlite');
    const store = new SqliteRunStore(storePath);
    const planned = QUERIES * REPLAYS;
    const samples: { done: number; rss: number; heap: number }[] = [];
    let done = 0;
    const t0 = performance.now();
    const sizeBefore = statSync(storePath).size;
    const outcome = await runSuite({
      name: 'soak',
      spec: {
        fixture: 'soak',
        system: { type: 'http', url, contract: 'rgate', timeout_ms: 30_000 },
        gate: null,
        replays: REPLAYS,
        concurrency: CONCURRENCY,
      } as never,
      root,
      store,
      runId: 'soak-1',
      startedAt: '2026-11-23T00:00:00Z',
      now: () => performance.now(),
      progress: {
        start() {},
        tick() {
          done++;
          // a sample every 1% of the run: enough points to see a trend, few enough to be free
          if (done % Math.max(1, Math.floor(planned / 100)) === 0) {
            gc();
            const m = process.memoryUsage();
            samples.push({ done, rss: m.rss, heap: m.heapUsed });
          }
        },
        finish() {},
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    store.close();
    const sizeAfter = statSync(storePath).size;
    const reread = new SqliteRunStore(storePath);
    const stored = reread.getObservations('soak-1').length;
    const row = reread.getRun('soak-1');
    reread.close();

    const second = samples.slice(Math.floor(samples.length / 2));
    const mib = (b: number): number => Number((b / 2 ** 20).toFixed(1));
    // the live heap (sampled after a full GC) is what a leak grows; RSS is printed too, but V8
    // rarely hands pages back
    const heapStart = second[0]!.heap;
    const heapEnd = second[second.length - 1]!.heap;
    const peak = Math.max(...samples.map((s) => s.rss));
    const figures = {
      queries: QUERIES,
      replays: REPLAYS,
      concurrency: CONCURRENCY,
      requests: outcome.observations.length,
      stored_observations: stored,
      errors: outcome.observations.filter((o) => !o.ok).length,
      seconds: Number(seconds.toFixed(1)),
      requests_per_second: Math.round(outcome.observations.length / seconds),
      // replaying holds only requests in flight; measuring reads every observation back at the end
      peak_rss_replaying_mib: mib(peak),
      rss_after_measuring_mib: mib(process.memoryUsage().rss),
      second_half_heap_mib: [mib(heapStart), mib(heapEnd)],
      second_half_rss_mib: [mib(second[0]!.rss), mib(second[second.length - 1]!.rss)],
      history_bytes_per_run: sizeAfter - sizeBefore,
      history_bytes_per_observation: Math.round((sizeAfter - sizeBefore) / stored),
      status: row?.status,
    };
    console.log(`soak: ${JSON.stringify(figures, null, 2)}`);
    mkdirSync(join(REPO, 'benchmarks', 'results'), { recursive: true });
    writeFileSync(
      join(REPO, 'benchmarks', 'results', 'soak.json'),
      JSON.stringify(
        {
          name: 'soak',
          command: 'npm run soak',
          machine: `${process.platform}-${process.arch}, node ${process.version}`,
          figures,
        },
        null,
        2,
      ) + '\n',
    );

    expect(outcome.observations).toHaveLength(planned);
    expect(stored).toBe(planned);
    expect(figures.errors).toBe(0);
    expect(row?.status).toBe('complete');
    // flat: the heap in use ends the second half within 25% of where it started it (GC noise allowed)
    expect(heapEnd).toBeLessThan(heapStart * 1.25);
  });
});
