// Isolation between concurrent requests: a request's outcome depends on its own system only. A query
// whose system floods FLOOD_BYTES of output, in flight with healthy ones at concurrency 4, costs only
// itself (each adapter kind driven through the harness's own pool, and once through runSuite, with
// the default output cap); an answer that arrived in time is not a timeout because rgate was busy.
// Real SUTs of test/sut. Assertions are on outcomes (error kinds, ok flags, latencies under the
// configured timeout), never on tight durations: the machine may be a loaded 2-core one.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPool } from '../harness/pool.js';
import { runSuite } from '../harness/run-suite.js';
import { SYSTEM_DEFAULTS } from '../src/core/defaults.js';
import { resolveConfig } from '../src/core/resolve-config.js';
import type {
  CommandSystemSpec,
  Observation,
  QueryRecord,
  SuiteSpec,
  SystemSpec,
} from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/index.js';
import { createSystem, type RawObservation } from '../src/systems/index.js';
import { FLOOD_BYTES } from './sut/behaviour.mjs';
import { startHttpSut } from './sut/http-sut.js';
import { until } from './helpers/clock.js';
import { pidAlive, recordedPids } from './systems-contract-suite.js';

const SUT = resolve(import.meta.dirname, 'sut');
const CONCURRENCY = 4;
// Far above what a healthy answer needs even on a loaded machine: a healthy query that reaches it was
// starved by the flood, and the flood itself must be stopped by the cap long before it.
const TIMEOUT_MS = 20_000;
const CAP = SYSTEM_DEFAULTS.max_output_bytes;

// the flood goes first, so all of it happens while three healthy queries are in flight beside it
const texts = ['flood', ...Array.from({ length: 11 }, (_, i) => `healthy ${i + 1}`)];
const queries: QueryRecord[] = texts.map((text, i) => ({ query_id: `q${i + 1}`, text }));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function commandSpec(worker: boolean, pidDir: string): CommandSystemSpec {
  return {
    type: 'command',
    argv: worker
      ? [process.execPath, join(SUT, 'worker.mjs')]
      : [process.execPath, join(SUT, 'cli.mjs'), '{query_id}', '{query}'],
    worker,
    contract: 'rgate',
    timeout_ms: TIMEOUT_MS,
    env: { SUT_PID_DIR: pidDir },
  };
}

/** Every query through one adapter, CONCURRENCY in flight, as the harness schedules them. */
async function replay(spec: SystemSpec): Promise<RawObservation[]> {
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const adapter = createSystem(spec, { corpus: [], config, dir: '.' });
  const obs: RawObservation[] = [];
  try {
    await adapter.start();
    await runPool(queries, CONCURRENCY, async (q, i) => {
      obs[i] = await adapter.request(q, { replay: 1, config, fixtureDir: '.' });
    });
  } finally {
    await adapter.close();
  }
  return obs;
}

/** The isolation guarantee, read off the observations. */
function expectFloodIsolated(obs: ReadonlyArray<RawObservation | Observation>): void {
  const [flooded, ...healthy] = obs;
  expect(flooded?.query_id).toBe('q1');
  expect(flooded?.ok).toBe(false);
  expect(flooded?.error?.kind).toBe('output_too_large');
  // stopped at the first chunk past the cap (a pipe or socket read is at most 64 KiB), the rest of
  // the flood never read: the bytes seen are stated. The kind is the proof that the cap, not the
  // timeout, ended it (whichever comes first is the one recorded), however long that took.
  const seen = Number(/(\d+) bytes seen/.exec(flooded?.error?.message ?? '')?.[1]);
  expect(seen).toBeGreaterThan(CAP);
  expect(seen).toBeLessThan(Math.min(CAP + 1024 * 1024, FLOOD_BYTES));
  expect(healthy).toHaveLength(texts.length - 1);
  for (const o of healthy) {
    expect({ query_id: o.query_id, ok: o.ok, error: o.error }).toEqual({ query_id: o.query_id, ok: true });
    expect(o.latency_ms).toBeLessThan(TIMEOUT_MS);
    expect(o.ranked[0]?.source_path).toBe(texts[Number(o.query_id.slice(1)) - 1]);
  }
}

async function expectNoProcessLeft(pidDir: string): Promise<void> {
  // the flooding SUT would run on forever after its flood: only the group kill ends it
  const pids = recordedPids(pidDir);
  expect(pids.length).toBeGreaterThan(0);
  await until(
    () => pids.every((p) => !pidAlive(p)),
    () => `SUT processes to end: ${pids.filter(pidAlive).join(', ')} alive`,
  );
}

describe(`a flooding query among healthy ones at concurrency ${CONCURRENCY}`, () => {
  it('command, per query: the flood is an output_too_large error, its group killed; the rest answer', async () => {
    const pidDir = tempDir('rgate-isolation-pids-');
    expectFloodIsolated(await replay(commandSpec(false, pidDir)));
    await expectNoProcessLeft(pidDir);
  });

  it('command, worker: the flooding worker is killed and replaced; the other workers answer', async () => {
    const pidDir = tempDir('rgate-isolation-pids-');
    expectFloodIsolated(await replay(commandSpec(true, pidDir)));
    await expectNoProcessLeft(pidDir);
  });

  it('http: the flooding response is aborted; the other requests answer', async () => {
    const sut = await startHttpSut();
    try {
      expectFloodIsolated(
        await replay({ type: 'http', url: sut.url, contract: 'rgate', timeout_ms: TIMEOUT_MS }),
      );
      await until(
        async () => (await sut.connections()) === 0,
        () => 'the server to have no connection open',
      );
    } finally {
      await sut.close();
    }
  });

  it('runSuite, command per query: the run records the flood and answers every healthy query', async () => {
    const root = tempDir('rgate-isolation-run-');
    const pidDir = tempDir('rgate-isolation-pids-');
    const dir = join(root, 'fixtures', 'flood');
    mkdirSync(dir, { recursive: true });
    const corpus = [
      {
        id: 'd',
        source_path: 'docs/d.md',
        text: 'd',
        kind: 'canonical',
        captured_at: '2026-01-01T00:00:00Z',
      },
    ];
    writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
    writeFileSync(
      join(dir, 'queries.jsonl'),
      queries.map((q) => JSON.stringify({ ...q, qrels: { d: 1 } })).join('\n') + '\n',
    );
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'semantic', k: 10 }));
    writeFreeze(dir, { frozenOn: '2026-11-22' });
    const spec = {
      fixture: 'flood',
      system: commandSpec(false, pidDir),
      replays: 1,
      concurrency: CONCURRENCY,
      gate: null,
    } as SuiteSpec;
    const { observations, system_down } = await runSuite({
      name: 'flood',
      spec,
      root,
      store: new MemoryRunStore(),
      runId: 'run-flood',
      startedAt: '2026-11-22T00:00:00Z',
    });
    expect(system_down).toBeUndefined();
    // the run replays in a shuffled order; the report's order is by query id
    expectFloodIsolated(
      [...observations].sort((a, b) => Number(a.query_id.slice(1)) - Number(b.query_id.slice(1))),
    );
    await expectNoProcessLeft(pidDir);
  });
});

/**
 * Block this process, event loop included, until `ready()` holds and at least `ms` have passed: rgate
 * itself busy (a large answer being parsed and checked, a GC pause, a starved CPU). Started
 * after the requests, so every timeout they armed is due when it ends. Gives up after a minute so a
 * SUT that never answers fails the test rather than hanging it.
 */
function stall(ms: number, ready: () => boolean = () => true): void {
  const t0 = performance.now();
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while ((performance.now() - t0 < ms || !ready()) && performance.now() - t0 < 60_000) {
    Atomics.wait(nap, 0, 0, 5);
  }
}

/** The answers came in while rgate was stalled past their timeout: none of them is a timeout. */
function expectAnsweredThroughStall(obs: RawObservation[], texts: string[], timeoutMs: number): void {
  expect(obs.map((o) => o.error)).toEqual(texts.map(() => undefined));
  expect(obs.map((o) => o.ranked[0]?.source_path)).toEqual(texts);
  // the premise: rgate could read none of them before its timeout had passed
  for (const o of obs) expect(o.latency_ms).toBeGreaterThanOrEqual(timeoutMs);
}

// What made healthy queries time out beside a flood: while rgate's event loop is held up, their
// timeouts fall due with their answers already waiting, unread.
describe('rgate stalled past the timeout of requests whose answers arrived meanwhile', () => {
  // Any value does: the stall lasts until the answers are in their pipes, however slow the machine.
  const SHORT_TIMEOUT_MS = 300;
  const three = queries.slice(1, 4);
  const threeTexts = three.map((q) => q.text);
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const ctx = { replay: 1, config, fixtureDir: '.' };

  it('command, per query: processes that exited in time are answers, not timeouts', async () => {
    const pidDir = tempDir('rgate-isolation-pids-');
    const spec = { ...commandSpec(false, pidDir), timeout_ms: SHORT_TIMEOUT_MS };
    const adapter = createSystem(spec, { corpus: [], config, dir: '.' });
    try {
      const pending = three.map((q) => adapter.request(q, ctx));
      // until each process has exited whole, every thread of it (pidAlive): only then has the kernel
      // told rgate (SIGCHLD, end of the pipes); a process whose main thread alone has ended has not
      // exited yet, and on a loaded machine its other threads can take longer than the stall
      stall(SHORT_TIMEOUT_MS, () => {
        const pids = recordedPids(pidDir).filter((p) => p > 0);
        return pids.length === three.length && !pids.some(pidAlive);
      });
      expectAnsweredThroughStall(await Promise.all(pending), threeTexts, SHORT_TIMEOUT_MS);
    } finally {
      await adapter.close();
    }
  });

  it('command, worker: answer lines written in time are answers, not timeouts', async () => {
    const pidDir = tempDir('rgate-isolation-pids-');
    const answered = tempDir('rgate-isolation-answered-');
    const base = commandSpec(true, pidDir);
    const spec = { ...base, timeout_ms: SHORT_TIMEOUT_MS, env: { ...base.env, SUT_ANSWERED_DIR: answered } };
    const adapter = createSystem(spec, { corpus: [], config, dir: '.' });
    try {
      const pending = three.map((q) => adapter.request(q, ctx));
      stall(SHORT_TIMEOUT_MS, () => readdirSync(answered).length === three.length);
      expectAnsweredThroughStall(await Promise.all(pending), threeTexts, SHORT_TIMEOUT_MS);
    } finally {
      await adapter.close();
    }
  });

  // The HTTP server runs in this process and cannot answer while it is stalled: it only has to answer
  // within the timeout once it can, hence a generous one.
  const HTTP_TIMEOUT_MS = 3000;

  it('http: responses written in time are answers, not timeouts', async () => {
    let written = 0;
    // the three answers go out together and rgate stalls before it can read any of them
    const sut = await startHttpSut({
      holdUntil: three.length,
      onAnswered: () => {
        if (++written === three.length) stall(HTTP_TIMEOUT_MS);
      },
    });
    const adapter = createSystem(
      { type: 'http', url: sut.url, contract: 'rgate', timeout_ms: HTTP_TIMEOUT_MS },
      { corpus: [], config, dir: '.' },
    );
    try {
      const pending = three.map((q) => adapter.request(q, ctx));
      expectAnsweredThroughStall(await Promise.all(pending), threeTexts, HTTP_TIMEOUT_MS);
    } finally {
      await adapter.close();
      await sut.close();
    }
  });

  it('http: connections rgate was too busy to complete do not eat the answer budget', async () => {
    const sut = await startHttpSut();
    const adapter = createSystem(
      { type: 'http', url: sut.url, contract: 'rgate', timeout_ms: HTTP_TIMEOUT_MS },
      { corpus: [], config, dir: '.' },
    );
    try {
      const pending = three.map((q) => adapter.request(q, ctx));
      // the requests are waiting for their connections when rgate stalls
      stall(HTTP_TIMEOUT_MS);
      expectAnsweredThroughStall(await Promise.all(pending), threeTexts, HTTP_TIMEOUT_MS);
    } finally {
      await adapter.close();
      await sut.close();
    }
  });
});
