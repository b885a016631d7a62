// Isolation between concurrent requests: a request's outcome depends on its own system only. Real SUTs
// of test/sut; assertions are on outcomes (error kinds, ok flags), never on tight durations: the
// machine may be a loaded 2-core one.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/resolve-config.js';
import type { CommandSystemSpec, QueryRecord } from '../src/documents/index.js';
import { createSystem, type RawObservation } from '../src/systems/index.js';
import { startHttpSut } from './sut/http-sut.js';
import { pidAlive, recordedPids } from './systems-contract-suite.js';

const SUT = resolve(import.meta.dirname, 'sut');

const texts = Array.from({ length: 3 }, (_, i) => `healthy ${i + 1}`);
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
    env: { SUT_PID_DIR: pidDir },
  };
}

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
  const three = queries.slice(0, 3);
  const threeTexts = three.map((q) => q.text);
  const config = resolveConfig({ mode: 'bm25', k: 10 });
  const ctx = { replay: 1, config, fixtureDir: '.' };

  it('command, per query: processes that exited in time are answers, not timeouts', async () => {
    const pidDir = tempDir('rgate-isolation-pids-');
    const spec = { ...commandSpec(false, pidDir), timeout_ms: SHORT_TIMEOUT_MS };
    const adapter = createSystem(spec, { corpus: [], config, dir: '.' });
    try {
      const pending = three.map((q) => adapter.request(q, ctx));
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
