import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/run-suite.js';
import { renderJunit } from '../reports/run/junit.js';
import type { Observation, SuiteSpec } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore, SqliteRunStore, type RunStore } from '../src/store/index.js';
import { onFakeClock, until } from './helpers/clock.js';

const SUT = resolve(import.meta.dirname, 'sut', 'runner');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A tiny frozen fixture set in a temp dir: two documents and the given query texts. */
function fixture(queryTexts: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'rgate-runner-'));
  dirs.push(root);
  const dir = join(root, 'fixtures', 'tiny');
  mkdirSync(dir, { recursive: true });
  const corpus = [
    {
      id: 'doc-a',
      source_path: 'docs/a.md',
      text: 'alpha document',
      kind: 'canonical',
      captured_at: '2026-01-01T00:00:00Z',
    },
    {
      id: 'doc-b',
      source_path: 'docs/b.md',
      text: 'beta document',
      kind: 'canonical',
      captured_at: '2026-01-02T00:00:00Z',
    },
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const queries = queryTexts.map((text, i) => ({
    query_id: `q${String(i + 1).padStart(2, '0')}`,
    text,
    qrels: { 'doc-a': 1 },
  }));
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'semantic', k: 10 }));
  writeFreeze(dir, { frozenOn: '2026-11-22' });
  writeFileSync(
    join(root, 'strict.gate.json'),
    JSON.stringify({
      gate_id: 'strict-test',
      version: '1',
      description: 'every request answered, with a selection mode, deterministically',
      min_queries: 1,
      rules: [
        { metric: 'error_rate', max: 0 },
        { metric: 'selection_mode_reporting', min: 1 },
        { metric: 'replay_determinism', min: 1 },
      ],
    }),
  );
  return root;
}

function suite(system: SuiteSpec['system'], extra: Partial<SuiteSpec> = {}): SuiteSpec {
  return { fixture: 'tiny', system, replays: 3, concurrency: 1, ...extra } as SuiteSpec;
}

async function run(
  root: string,
  spec: SuiteSpec,
  store: RunStore = new MemoryRunStore(),
  signal?: AbortSignal,
) {
  return runSuite({
    name: 'tiny',
    spec,
    root,
    store,
    runId: 'run-1',
    startedAt: '2026-11-22T00:00:00Z',
    ...(signal ? { signal } : {}),
  });
}

describe('runSuite against real systems under test', () => {
  it('catches a system whose ties depend on arrival order, naming the field and the replays', async () => {
    const root = fixture(Array.from({ length: 10 }, (_, i) => `question ${i}`));
    const { report } = await run(
      root,
      suite(
        {
          type: 'command',
          argv: [process.execPath, join(SUT, 'arrival-order-ties.mjs')],
          worker: true,
          contract: 'rgate',
        },
        { gate: join(root, 'strict.gate.json') },
      ),
    );
    const proof = report.replay_proof;
    expect(proof.identical).toBe(false);
    expect(proof.divergent.length).toBeGreaterThan(0);
    for (const d of proof.divergent) {
      expect(d.field).toBe('/ranked/0/id');
      expect(d.groups.length).toBe(2);
      expect(d.groups.flatMap((g) => g.replays).sort()).toEqual([1, 2, 3]);
    }
    expect(report.gate.verdict).toBe('FAIL');
    const rule = report.gate.rules.find((r) => r.metric === 'replay_determinism');
    expect(rule?.status).toBe('fail');
  });

  it('finishes a run against a crashing and hanging system and fails it with reasons', async () => {
    const root = fixture(['alpha', 'crash', 'hang', 'beta', 'gamma']);
    const holding = join(root, 'holding');
    mkdirSync(holding);
    // the hanging query is timed out on a clock this test moves, once its process holds it; the
    // healthy ones answer within theirs however long a loaded machine takes
    const { report, observations } = await onFakeClock(async (clock) => {
      const outcome = run(
        root,
        suite(
          {
            type: 'command',
            argv: [process.execPath, join(SUT, 'flaky.mjs'), '{query_id}', '{query}'],
            contract: 'rgate',
            timeout_ms: 1500,
            env: { SUT_HOLDING_DIR: holding },
          },
          { replays: 2, gate: join(root, 'strict.gate.json') },
        ),
      );
      let done = false;
      void outcome.finally(() => (done = true));
      // one hang per replay, one at a time (concurrency 1)
      for (let timedOut = 0; !done;) {
        await until(() => done || readdirSync(holding).length > timedOut);
        if (readdirSync(holding).length > timedOut) {
          timedOut++;
          await clock.advance(1500);
        }
      }
      return outcome;
    });
    expect(observations).toHaveLength(10);
    const crash = observations.find((o) => o.query_id === 'q02' && o.replay === 1) as Observation;
    expect(crash.ok).toBe(false);
    expect(crash.error?.stderr ?? crash.error?.message).toContain('segfault-like failure');
    const hang = observations.find((o) => o.query_id === 'q03' && o.replay === 1) as Observation;
    expect(hang.ok).toBe(false);
    expect(hang.error?.kind).toBe('timeout');
    expect(report.gate.verdict).toBe('FAIL');
    const err = report.gate.rules.find((r) => r.metric === 'error_rate');
    expect(err).toMatchObject({ status: 'fail', numerator: 4, denominator: 10 });
    // the healthy queries were answered identically in both replays
    expect(report.replay_proof.divergent.map((d) => d.query_id)).not.toContain('q01');
  });

  it('keeps every observation already made when a run is interrupted', async () => {
    const root = fixture(Array.from({ length: 12 }, (_, i) => (i === 5 ? 'slow' : `q ${i}`)));
    const store = new SqliteRunStore(join(root, 'history.sqlite'));
    const controller = new AbortController();
    let seen = 0;
    const counting: RunStore = Object.assign(Object.create(store) as RunStore, {
      addObservation(runId: string, o: Observation) {
        store.addObservation(runId, o);
        if (++seen === 4) controller.abort();
      },
    });
    const outcome = await run(
      root,
      suite(
        {
          type: 'command',
          argv: [process.execPath, join(SUT, 'flaky.mjs'), '{query_id}', '{query}'],
          contract: 'rgate',
        },
        {
          replays: 2,
          concurrency: 2,
          gate: 'semantic-retrieval-v1',
        },
      ),
      counting,
      controller.signal,
    );
    expect(outcome.interrupted).toBe(true);
    expect(outcome.observations.length).toBeGreaterThanOrEqual(4);
    expect(outcome.observations.length).toBeLessThan(24);
    expect(store.getObservations('run-1')).toHaveLength(outcome.observations.length);
    expect(outcome.report.gate.verdict).toBe('FAIL');
    expect(outcome.report.gate.reasons[0]).toMatch(/^run interrupted/);
    // JUnit: the interruption is the error CI shows first; no rule is a verdict on 4 of 24 requests
    expect(outcome.report.gate.overruled).toBe('interrupted');
    const xml = renderJunit(outcome.report);
    expect(xml).toMatch(/^\s*<testcase [^>]* name="run">\s*<error message="run interrupted: /m);
    expect(xml).toMatch(/errors="1" skipped="[1-9]\d*"/);
    expect(xml).not.toContain('<failure');
    store.close();
  });

  describe('a system that answers nothing', () => {
    const queries = Array.from({ length: 15 }, (_, i) => `question ${i}`);

    it('missing binary: stops after 10 failed requests in a row, names the first error, stores the run as failed', async () => {
      const root = fixture(queries);
      const store = new MemoryRunStore();
      const outcome = await run(
        root,
        suite(
          { type: 'command', argv: [join(root, 'no-such-retriever'), '{query}'], contract: 'rgate' },
          // a gate, so JUnit has rules to leave unjudged
          { gate: 'semantic-retrieval-v1' },
        ),
        store,
      );
      expect(outcome.system_down).toMatchObject({ failed_requests: 10, planned_requests: 45 });
      expect(outcome.observations).toHaveLength(10);
      expect(outcome.report.gate.verdict).toBe('FAIL');
      expect(outcome.report.gate.reasons[0]).toMatch(
        /^system under test down: all 10 requests made failed, none succeeded; 35 of 45 planned were never made \(first error: \w+: .*no-such-retriever/,
      );
      expect(store.getRun('run-1')).toMatchObject({ status: 'failed', verdict: 'FAIL' });
      // JUnit: the outage is an error, first; no rule passes or fails on 10 failed requests
      const xml = renderJunit(outcome.report);
      expect(xml).toMatch(/<testsuites [^>]*failures="0" errors="1" skipped="[1-9]\d*">/);
      expect(xml.indexOf('<error message="system under test down: ')).toBeLessThan(xml.indexOf('<skipped'));
      expect(xml).not.toMatch(/name="query_count">\s*<properties>[\s\S]*?<\/properties>\s*<\/testcase>/);
    });

    it('an HTTP service that is not listening: the same, without waiting out 45 requests', async () => {
      const root = fixture(queries);
      const outcome = await run(
        root,
        suite({
          type: 'http',
          url: 'http://127.0.0.1:9/retrieve',
          contract: 'context-pack',
        } as SuiteSpec['system']),
      );
      expect(outcome.system_down?.failed_requests).toBe(10);
      expect(outcome.report.gate.reasons[0]).toContain('none succeeded');
    });

    it('one success is enough to run everything: a flaky system is gated, not declared down', async () => {
      const root = fixture(['alpha', 'crash', 'crash', 'beta']);
      const outcome = await run(
        root,
        suite(
          {
            type: 'command',
            argv: [process.execPath, join(SUT, 'flaky.mjs'), '{query_id}', '{query}'],
            contract: 'rgate',
          },
          { replays: 1 },
        ),
        new MemoryRunStore(),
      );
      expect(outcome.system_down).toBeUndefined();
      expect(outcome.observations).toHaveLength(4);
    });
  });

  describe('the run lifecycle lives in runSuite', () => {
    it('begins and finishes its own run: complete, with the report, and no caller bookkeeping', async () => {
      const root = fixture(['alpha', 'beta']);
      const store = new MemoryRunStore();
      await run(root, suite({ type: 'builtin', mode: 'semantic' }, { replays: 2 }), store);
      const row = store.getRun('run-1');
      expect(row).toMatchObject({ status: 'complete' });
      expect(row?.finished_at).not.toBeNull();
      expect(store.getMetrics('run-1').length).toBeGreaterThan(0);
    });

    it('marks the run failed when something throws after it began, and rethrows', async () => {
      const root = fixture(['alpha', 'beta', 'gamma']);
      class BrokenStore extends MemoryRunStore {
        added = 0;
        override addObservation(runId: string, o: Observation): void {
          if (++this.added === 3) throw new Error('disk full');
          super.addObservation(runId, o);
        }
      }
      const store = new BrokenStore();
      await expect(run(root, suite({ type: 'builtin', mode: 'semantic' }), store)).rejects.toThrow(
        'disk full',
      );
      expect(store.getRun('run-1')).toMatchObject({ status: 'failed', verdict: null });
    });
  });
});
