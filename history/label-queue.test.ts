import { describe, expect, it } from 'vitest';
import type { CorpusRecord, Observation, QueryRecord } from '../src/documents/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import type { PinnedSuite } from '../src/snapshot/index.js';
import { analyzeCompare, saveSession } from './compare.js';
import { judgmentHoles } from './label-holes.js';
import { buildLabelQueue, poolQueue, rankingsFromStore, type RankingSource } from './label-queue.js';
import { artifacts, outcome, report } from '../test/history-helpers.js';
import { SETTINGS } from '../test/helpers/run-rows.js';

const doc = (id: string): CorpusRecord => ({
  id,
  source_path: id,
  title: `title ${id}`,
  text: `text of ${id}`,
  kind: 'canonical',
  captured_at: '2026-01-01',
});
const corpus = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(doc);
const queries: QueryRecord[] = [
  { query_id: 'q2', text: 'second', qrels: { a: 1 } },
  { query_id: 'q1', text: 'first', qrels: { b: 0 } },
  // no qrels at all: trec_eval does not measure it, so it is not pooled
  { query_id: 'q3', text: 'unjudged query' },
];

function source(id: string, top: Record<string, string[]>): RankingSource {
  return { source: { id, label: `variant ${id}`, run_id: `run-${id}` }, top: new Map(Object.entries(top)) };
}

const sources = [
  source('v1', { q1: ['b', 'c', 'd'], q2: ['a', 'e', 'c'], q3: ['a', 'b'] }),
  source('v2', { q1: ['d', 'b', 'zz'], q2: ['c', 'a', 'f'] }),
  source('v3', { q1: ['c', 'd', 'b'], q2: ['e', 'g', 'a'] }),
];

const row = (i: {
  query_id: string;
  doc_id: string;
  surfaced_by?: string[] | undefined;
  best_rank?: number | undefined;
}) => [i.query_id, i.doc_id, (i.surfaced_by ?? []).join(','), i.best_rank];

describe('poolQueue', () => {
  it('puts the pairs that can change a verdict first, pooled or not, and the rest in blind order', () => {
    const priority = [
      { query_id: 'q2', doc_id: 'g' }, // pooled (v3 ranks it)
      { query_id: 'q3', doc_id: 'b' }, // a query with no judgment: never pooled, still queued first
      { query_id: 'q1', doc_id: 'b' }, // judged (grade 0): not a hole, left out
      { query_id: 'q1', doc_id: 'zz' }, // not in the corpus: left out
    ];
    const { items, verdict_pairs } = poolQueue(sources, queries, corpus, 3, true, priority);
    expect(verdict_pairs).toBe(2);
    expect(items.map((i) => [i.query_id, i.doc_id])).toEqual([
      ['q2', 'g'],
      ['q3', 'b'],
      ['q1', 'c'],
      ['q1', 'd'],
      ['q2', 'c'],
      ['q2', 'e'],
      ['q2', 'f'],
    ]);
    // blind: no item says who retrieved it, the first ones included
    expect(items.every((i) => i.surfaced_by === undefined && i.best_rank === undefined)).toBe(true);
    expect(poolQueue(sources, queries, corpus, 3, true).verdict_pairs).toBe(0);
  });

  it('dedups per (query, doc), skips judged docs, orders by variants, best rank, query id, doc id', () => {
    const { items, judged_queries, not_in_corpus } = poolQueue(sources, queries, corpus, 3);
    expect(judged_queries).toBe(2);
    expect(not_in_corpus).toBe(1); // zz, ranked by v2 for q1
    expect(items.map(row)).toEqual([
      ['q1', 'd', 'v1,v2,v3', 1],
      ['q1', 'c', 'v1,v3', 1],
      ['q2', 'c', 'v1,v2', 1],
      ['q2', 'e', 'v1,v3', 1],
      ['q2', 'g', 'v3', 2],
      ['q2', 'f', 'v2', 3],
    ]);
    expect(items[0]).toEqual({
      query_id: 'q1',
      query_text: 'first',
      doc_id: 'd',
      title: 'title d',
      text: 'text of d',
      surfaced_by: ['v1', 'v2', 'v3'],
      best_rank: 1,
    });
  });

  it('pools only the top k', () => {
    const { items } = poolQueue(sources, queries, corpus, 1);
    expect(items.map(row)).toEqual([
      ['q1', 'c', 'v3', 1],
      ['q1', 'd', 'v2', 1],
      ['q2', 'c', 'v2', 1],
      ['q2', 'e', 'v3', 1],
    ]);
  });

  it('does not depend on the order of the corpus, the queries or the ranking maps', () => {
    const a = poolQueue(sources, queries, corpus, 3);
    const shuffled = sources.map((s) => ({ ...s, top: new Map([...s.top].reverse()) }));
    const b = poolQueue(shuffled, [...queries].reverse(), [...corpus].reverse(), 3);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('a doc judged 0 is judged: it never enters the queue', () => {
    const { items } = poolQueue([source('v1', { q1: ['b'] })], queries, corpus, 5);
    expect(items).toEqual([]);
  });
});

describe('judgmentHoles', () => {
  it('counts unjudged documents in the top k over the queries with qrels', () => {
    const top = { q1: ['b', 'c', 'd'], q2: ['a'], q3: ['x', 'y'] };
    expect(judgmentHoles(top, queries, [1, 3])).toEqual([
      { k: 1, queries: 2, ranked: 2, unjudged: 0, queries_with_unjudged: 0 },
      { k: 3, queries: 2, ranked: 4, unjudged: 2, queries_with_unjudged: 1 },
    ]);
  });
});

const set = (over: Partial<PinnedSuite['artifacts']> = {}): PinnedSuite =>
  ({
    name: 'ctx',
    dir: '/x/fixtures/ctx',
    corpus,
    queries,
    artifacts: { ...artifacts(), ...over },
  }) as PinnedSuite;

function observation(query_id: string, replay: number, ids: string[], ok = true): Observation {
  return {
    query_id,
    replay,
    ok,
    ranked: ids.map((id, i) => ({ id, source_path: id, score: 10 - i })),
    fallback: { triggered: false },
    usage: { files: 0, chars: 0, tokens: 0 },
    latency_ms: 1,
    contract: { name: 'rgate', valid: true, errors: [] },
    fingerprint: 'f',
  };
}

describe('rankingsFromStore + buildLabelQueue', () => {
  it('a run: each replay is a source, rankings in the order the system returned them', () => {
    const store = new MemoryRunStore();
    store.beginRun({
      run_id: 'r-1',
      suite: 'ctx',
      started_at: 't',
      artifacts: artifacts(),
      settings: SETTINGS,
    });
    store.addObservation('r-1', observation('q1', 1, ['c', 'b', 'd']));
    store.addObservation('r-1', observation('q1', 2, ['e', 'c']));
    store.addObservation('r-1', observation('q2', 2, ['f'], false)); // an error is not a ranking
    const r = rankingsFromStore(store, 'r-1');
    expect(r.origin).toEqual({ kind: 'run', id: 'r-1', suite: 'ctx' });
    expect(r.sources.map((s) => s.source.id)).toEqual(['r1', 'r2']);
    const q = buildLabelQueue(r, set(), 2);
    expect(q.items.map(row)).toEqual([
      ['q1', 'c', 'r1,r2', 1],
      ['q1', 'e', 'r2', 1],
    ]);
    expect(q.query_set_changed).toBe(false);
  });

  it('a comparison session: its variants, at most its stored depth', () => {
    const store = new MemoryRunStore();
    const mk = (id: string, top: string[]) =>
      report({
        runId: id,
        queries: [{ ...outcome('q1'), actual: { ok: true, top_ids: top } }],
      });
    const s = analyzeCompare({
      suite: 'ctx',
      kind: 'variants',
      variants: [
        { spec: { label: 'k1=0.9', overrides: {} }, report: mk('a', ['c', 'b']) },
        { spec: { label: 'k1=1.2', overrides: {} }, report: mk('b', ['d', 'c']) },
      ],
      settings: { seed: 1, alpha: 0.05, resamples: 100, permutations: 100 },
      environment: { session_id: 'cmp-1', created_at: 't' },
      queries,
    });
    expect(s.variants[1]!.judgment_holes![0]).toEqual({
      k: 5,
      queries: 2,
      ranked: 2,
      unjudged: 2,
      queries_with_unjudged: 1,
    });
    saveSession(store, s);
    const r = rankingsFromStore(store, 'cmp-1');
    expect(r.sources.map((x) => x.source)).toEqual([
      { id: 'v1', label: 'k1=0.9', run_id: 'a' },
      { id: 'v2', label: 'k1=1.2', run_id: 'b' },
    ]);
    expect(buildLabelQueue(r, set(), 5).items.map(row)).toEqual([
      ['q1', 'c', 'v1,v2', 1],
      ['q1', 'd', 'v2', 1],
    ]);
    expect(() => buildLabelQueue(r, set(), 11)).toThrow(/keeps each variant's top 10 only/);
  });

  it('refuses another corpus than the one ranked, and says when the query set moved', () => {
    const store = new MemoryRunStore();
    store.beginRun({
      run_id: 'r-1',
      suite: 'ctx',
      started_at: 't',
      artifacts: artifacts(),
      settings: SETTINGS,
    });
    store.addObservation('r-1', observation('q1', 1, ['c']));
    const r = rankingsFromStore(store, 'r-1');
    expect(() => buildLabelQueue(r, set({ corpus_sha256: 'sha256:other' }), 5)).toThrow(
      /is not the corpus run r-1 ran on/,
    );
    expect(buildLabelQueue(r, set({ query_set_sha256: 'sha256:moved' }), 5).query_set_changed).toBe(true);
    expect(() => buildLabelQueue(r, set(), 0)).toThrow(/--k 0/);
    expect(() => rankingsFromStore(store, 'nope')).toThrow(/no run or comparison session nope/);
  });
});
