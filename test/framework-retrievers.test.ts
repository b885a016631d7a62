/**
 * LangChain.js and LlamaIndex.TS retrievers as they are (issue 38): the real @langchain/core and
 * @llamaindex/core packages, each retriever over an in-memory vector store with our deterministic
 * embedder (test/sut/module/), gated as module systems over the same records frozen as a fixture
 * set. rgate calls invoke(query) / retrieve({query}) and reads ids, sources and scores from the
 * Documents and nodes they return.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import type { SuiteSpec } from '../src/documents/index.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { REPO } from './helpers/dist.js';
import { tempDir } from './history-helpers.js';
import { DOCS, QUERIES } from './sut/module/pinned-docs.js';

let root: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir: root, cleanup } = tempDir('rgate-frameworks-'));
  const set = join(root, 'fixtures', 'pinned');
  mkdirSync(set, { recursive: true });
  const corpus = DOCS.map((d) => JSON.stringify({ id: d.id, source_path: d.source, text: d.text }));
  writeFileSync(join(set, 'corpus.jsonl'), corpus.join('\n') + '\n');
  const queries = QUERIES.map((q) =>
    JSON.stringify({ query_id: q.query_id, text: q.text, qrels: { [q.useful]: 1 } }),
  );
  writeFileSync(join(set, 'queries.jsonl'), queries.join('\n') + '\n');
  writeFileSync(join(set, 'config.json'), JSON.stringify({ mode: 'semantic', k: 3 }));
  writeFreeze(set, { frozenOn: '2026-11-26' });
});
afterAll(() => cleanup());

function gate(path: string, exportName: string): Promise<RunOutcome> {
  const spec: SuiteSpec = {
    fixture: 'pinned',
    system: { type: 'module', path: join(REPO, 'test', 'sut', 'module', path), export: exportName },
    replays: 2,
    // one thread: loading a framework is the slow part of each thread's life
    concurrency: 1,
  };
  return runSuite({
    name: 'pinned',
    spec,
    root,
    store: new MemoryRunStore(),
    runId: `fw-${path}-${exportName}`,
    startedAt: '2026-11-26T00:00:00Z',
  });
}

describe.each([
  ['LangChain.js (VectorStoreRetriever.invoke)', 'langchain-retriever.ts'],
  ['LlamaIndex.TS (BaseRetriever.retrieve)', 'llamaindex-retriever.ts'],
])('%s', (_label, file) => {
  let run: RunOutcome;
  beforeAll(async () => {
    run = await gate(file, 'retriever');
  });

  it('is gated as it is: ids, sources and scores read from its answers, every query answered', () => {
    expect(run.report.system).toMatchObject({ kind: 'module', contract: 'rgate' });
    expect(run.observations.every((o) => o.ok && o.contract.valid)).toBe(true);
    const paths = new Map(DOCS.map((d) => [d.id, d.source]));
    for (const o of run.observations) {
      expect(o.ranked).toHaveLength(3);
      for (const r of o.ranked) expect(r.source_path).toBe(paths.get(r.id));
      const scores = o.ranked.map((r) => r.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
  });

  it('its ranking is measured, and it replays identically', () => {
    const rr = run.report.metrics.find((m) => m.id === 'recip_rank')!.value;
    // the useful document is first for every query of the pinned set
    expect(rr.kind === 'mean' && rr.mean).toBe(1);
    expect(run.report.replay_proof.identical).toBe(true);
  });
});

it('a LangChain Document without an id fails its request, naming its place; rgate never guesses an id', async () => {
  const run = await gate('langchain-retriever.ts', 'anonymous');
  const o = run.observations[0]!;
  expect(o.ok).toBe(false);
  expect(o.error?.kind).toBe('contract_invalid');
  expect(o.error?.message).toMatch(
    /^answer \/0: a LangChain Document with no id \(rgate reads Document\.id, then metadata\.id\)/,
  );
});
