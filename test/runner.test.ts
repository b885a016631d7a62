import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../harness/run-suite.js';
import type { Observation, SuiteSpec } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore, SqliteRunStore, type RunStore } from '../src/store/index.js';

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
    const { report, observations } = await run(
      root,
      suite(
        {
          type: 'command',
          argv: [process.execPath, join(SUT, 'flaky.mjs'), '{query_id}', '{query}'],
          contract: 'rgate',
          timeout_ms: 1500,
        },
        { replays: 2, gate: join(root, 'strict.gate.json') },
      ),
    );
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
    store.close();
  });
});
