// The README's "As a library" example, run as written (importing the package entry), so it cannot rot.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  MemoryRunStore,
  renderMarkdown,
  runSuite,
  score,
  type RetrieverRequest,
} from '../src/index.js';

const root = resolve(import.meta.dirname, '..');

describe('rgate as a library', () => {
  it('gates a retriever from a vitest suite', async () => {
    const { report } = await runSuite({
      name: 'context-load',
      root, // where fixtures/ and gates/ live
      spec: {
        fixture: 'context-load',
        system: { type: 'builtin', mode: 'context-load' },
        gate: 'context-load-contract-v0',
        replays: 2,
      },
      store: new MemoryRunStore(),
      runId: 'vitest',
      startedAt: '2026-11-22T00:00:00Z',
    });
    expect(report.gate.verdict, renderMarkdown(report)).not.toBe('FAIL');
    expect(report.replay_proof.identical).toBe(true);
  });

  it('gates a retriever function it holds (the README example)', async () => {
    // the team's retriever: ids of the records sharing the most words with the query, best first
    const search = (r: RetrieverRequest): string[] => {
      const records = readFileSync(join(r.corpus_dir, 'corpus.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; text: string });
      const words = new Set(r.query.toLowerCase().split(/\W+/));
      const overlap = (t: string): number =>
        t
          .toLowerCase()
          .split(/\W+/)
          .filter((w) => words.has(w)).length;
      return records
        .map((d) => ({ id: d.id, n: overlap(d.text) }))
        .sort((a, b) => b.n - a.n || (a.id < b.id ? -1 : 1))
        .slice(0, r.k)
        .map((d) => d.id);
    };
    const { report } = await runSuite({
      name: 'context-load',
      root,
      spec: { fixture: 'context-load', system: { type: 'function', fn: search }, replays: 2 },
      store: new MemoryRunStore(),
      runId: 'vitest-fn',
      startedAt: '2026-11-22T00:00:00Z',
    });
    expect(report.system).toMatchObject({ name: 'function search', kind: 'function', contract: 'rgate' });
    expect(report.replay_proof.identical).toBe(true);
    const errors = report.metrics.find((m) => m.id === 'error_rate')!.value;
    expect(errors).toMatchObject({ numerator: 0 });
    const rr = report.metrics.find((m) => m.id === 'recip_rank')!.value;
    expect(rr.kind === 'mean' && rr.mean).toBeGreaterThan(0.3);
  });

  it('scores a TREC run like trec_eval', () => {
    const r = score({
      qrels: resolve(root, 'fixtures/cacm/source/qrels.cacm.txt'),
      run: resolve(root, 'fixtures/cacm/source/cacm-bm25.txt'),
      measures: ['P.30'],
    });
    // the published Anserini BM25 P@30 for CACM, reproduced from its own run file
    expect(r.all.P_30!.toFixed(4)).toBe('0.1942');
  });

  it('evaluates in-memory rankings, per query and overall (as ranx does)', () => {
    const qrels = { q1: { d1: 2, d3: 1 }, q2: { d2: 1 } };
    const run = { q1: { d1: 0.9, d2: 0.8, d3: 0.7 }, q2: { d1: 0.5, d2: 0.4 } };
    const r = evaluate(qrels, run, ['map', 'P.1', 'ndcg_cut.3']);
    expect(r.perQuery.P_1).toEqual({ q1: 1, q2: 0 });
    expect(r.mean.map).toBeCloseTo((5 / 6 + 1 / 2) / 2, 12);
  });
});
