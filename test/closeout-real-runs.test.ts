import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCloseout } from '../history/closeout.js';
import { setSuiteBaseline } from '../history/baseline.js';
import { storedBaselineFor } from '../harness/run-baseline.js';
import { historyFromStore } from '../history/trends.js';
import { runSuite } from '../harness/run-suite.js';
import { loadGatePolicy } from '../gates/index.js';
import { renderCloseoutMarkdown } from '../reports/history/closeout.js';
import { loadFixtureSet, writeFreeze } from '../src/snapshot/index.js';
import { SqliteRunStore, type RunStore } from '../src/store/index.js';
import type { SuiteSpec } from '../src/documents/index.js';
import { tempDir } from './history-helpers.js';

/**
 * The whole Gate C path on real runs: the builtin engine replays a small frozen context-load set,
 * `rgate run`'s store writes are made as run.ts makes them, the baseline is set, the fixture moves
 * to v2 with a reset note, the next run reads its baseline from the store (storedBaselineFor, what
 * the lead wires into `rgate run`) and the closeout cites the note.
 */
const REPO = resolve(import.meta.dirname, '..');
const GATE_C = 'context-load-gate-c-v0';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function fixture(): { root: string; dir: string } {
  const t = tempDir('rgate-gatec-');
  cleanups.push(t.cleanup);
  const dir = join(t.dir, 'fixtures', 'ctx');
  mkdirSync(dir, { recursive: true });
  const docs = [
    [
      'gov-1',
      'governance/retrieval-contract.md',
      'retrieval contract ranking tie break order deterministic',
      'canonical',
    ],
    [
      'gov-2',
      'governance/budget-policy.md',
      'context budget max files characters per file tokens',
      'canonical',
    ],
    ['mem-1', 'memory/weighting.md', 'evidence outcome weighting mode bias decision', 'tactical'],
    ['mem-2', 'memory/fallback.md', 'fallback restricted relaxed unrestricted sequence', 'tactical'],
  ];
  const corpus = docs.map(([id, source_path, text, kind], i) => ({
    id,
    source_path,
    text,
    kind,
    captured_at: `2026-01-0${i + 1}T00:00:00Z`,
    evidence: 0.5,
    outcome: 0.5,
  }));
  writeFileSync(join(dir, 'corpus.jsonl'), corpus.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const queries = [
    { query_id: 'q1', text: 'ranking tie break order', qrels: { 'gov-1': 2 } },
    { query_id: 'q2', text: 'context budget tokens', qrels: { 'gov-2': 2 } },
    { query_id: 'q3', text: 'weighting mode decision', qrels: { 'mem-1': 1 } },
  ];
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ mode: 'context-load', k: 10, as_of: '2026-02-01T00:00:00Z' }),
  );
  writeFreeze(dir, { frozenOn: '2026-11-01' });
  return { root: t.dir, dir };
}

/** One `rgate run` as src/cli/commands/run.ts does it: runSuite, then finishRun with the report. */
async function run(store: RunStore, root: string, runId: string, startedAt: string) {
  const spec: SuiteSpec = {
    fixture: 'ctx',
    system: { type: 'builtin' },
    gate: join(REPO, 'gates', `${GATE_C}.gate.json`),
    replays: 2,
  };
  const pinned = loadFixtureSet('ctx', { root });
  const baseline = storedBaselineFor(
    store,
    'ctx',
    loadGatePolicy(GATE_C, REPO),
    pinned.artifacts,
    pinned.freeze,
  );
  const outcome = await runSuite({
    name: 'ctx',
    spec,
    root,
    store,
    runId,
    startedAt,
    ...(baseline ? { baseline } : {}),
  });
  store.finishRun(runId, {
    status: outcome.interrupted ? 'interrupted' : 'complete',
    finished_at: startedAt,
    gate_id: outcome.report.gate.gate_id,
    verdict: outcome.report.gate.verdict,
    metrics: outcome.report.metrics,
    report: outcome.report,
  });
  return outcome.report;
}

describe('Gate C on real runs', () => {
  it('baseline from the store, fixture bump with reset note, closeout citing it', async () => {
    const { root, dir } = fixture();
    const store = new SqliteRunStore(join(root, '.rgate', 'history.sqlite'));
    const first = await run(store, root, 'run-1', '2026-11-01T00:00:00Z');
    expect(first.baseline).toBeUndefined();
    expect(store.getRun('run-1')?.observation_count).toBe(6);
    setSuiteBaseline(store, 'ctx', undefined, 'Gate C frozen baseline');

    appendFileSync(
      join(dir, 'queries.jsonl'),
      JSON.stringify({ query_id: 'q4', text: 'fallback sequence relaxed', qrels: { 'mem-2': 1 } }) + '\n',
    );
    writeFreeze(dir, {
      frozenOn: '2026-11-10',
      version: 'v2',
      resetNote: 'q4 added for the fallback sequence; baseline reset',
    });

    const second = await run(store, root, 'run-2', '2026-11-10T00:00:00Z');
    expect(second.baseline).toMatchObject({
      run_id: 'run-1',
      source: 'history baseline run-1',
      reset_note: 'v2: q4 added for the fallback sequence; baseline reset',
    });
    const recallVsBase = second.gate.rules.find((r) => r.metric === 'recall.10' && r.baseline);
    expect(recallVsBase?.baseline?.source).toBe('history baseline run-1');

    const doc = buildCloseout({
      suite: 'ctx',
      policy: loadGatePolicy(GATE_C, REPO),
      pinned: loadFixtureSet('ctx', { root }),
      store,
      residuals: [],
    });
    expect(doc.run.run_id).toBe('run-2');
    expect(doc.baseline).toMatchObject({ run_id: 'run-1', version: 'v1', version_changed: true });
    expect(doc.determinism.replays).toBe(2);
    // Gate C asks for >= 30 replays: two replays are insufficient evidence, so the closeout is not ready
    expect(doc.ready).toBe(false);
    expect(doc.gate.rules.find((r) => r.metric === 'replay_determinism')?.status).toBe('fail');
    expect(renderCloseoutMarkdown(doc)).toContain('q4 added for the fallback sequence; baseline reset');
    // the history sees both runs and marks the snapshot change
    const h = historyFromStore(store, 'ctx');
    expect(h.runs.map((r) => r.version)).toEqual(['v1', 'v2']);
    expect(h.trends.find((t) => t.metric === 'recall.10')?.points[1]?.snapshot_changed).toBe(true);
    store.close();
  });
});
