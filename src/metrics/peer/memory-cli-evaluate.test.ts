import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeResponse } from '../../systems/normalize/index.js';
import { cliExpectedId, memoryCliEvaluate } from './memory-cli-evaluate.js';

const DIR = resolve(import.meta.dirname, '../../../fixtures/memory-cli/responses');
interface Raw {
  selection_mode: string;
  selected_id: string | null;
  source_path: string | null;
}
const raw = (name: string): Raw =>
  JSON.parse(readFileSync(resolve(DIR, `retrieve-${name}.json`), 'utf8')) as Raw;

/** The recorded answers as rgate observes them, replayed `replays` times (a replay of a recording is the recording). */
function observed(name: string, replays: number) {
  const n = normalizeResponse('memory-cli-v1', raw(name));
  return Array.from({ length: replays }, (_, i) => ({ ...n, replay: i + 1 }));
}

describe("memory-cli evaluate's four rates, reproduced on the recorded answers", () => {
  const queries = [
    { query_id: 'review', expected_id: 'cli-commands-4a43d031', rec: 'classic' },
    { query_id: 'key', expected_id: 'cli-commands-4a43d031', rec: 'exact-key' },
    { query_id: 'none', rec: 'nomatch' },
  ];

  it('counts as the CLI does, over every query', () => {
    const byId = new Map(queries.map((q) => [q.query_id, observed(q.rec, 5)]));
    const r = memoryCliEvaluate(queries, (id) => byId.get(id)!);
    // expected, read off the raw JSON by the CLI's rules
    const answers = queries.map((q) => ({ q, a: raw(q.rec) }));
    const semantic = ['semantic', 'embedding_semantic', 'hybrid_rrf'];
    const top1 = answers.filter(
      ({ q, a }) => semantic.includes(a.selection_mode) && q.expected_id && a.selected_id === q.expected_id,
    ).length;
    const traces = answers.filter(({ a }) => a.selected_id && a.source_path).length;
    const fallbacks = answers.filter(({ a }) => a.selection_mode.startsWith('fallback_')).length;
    expect(r.top1_useful_rate).toEqual({ numerator: top1, denominator: 3 });
    expect(r.selection_mode_reporting).toEqual({ numerator: 3, denominator: 3 });
    expect(r.source_trace_completeness).toEqual({ numerator: traces, denominator: 3 });
    expect(fallbacks).toBeGreaterThan(0);
    expect(r.fallback_determinism).toEqual({
      numerator: fallbacks,
      denominator: fallbacks,
      by_default: false,
    });
    // the recordings: the exact key is answered semantically and right; the other two fell back
    expect([top1, fallbacks]).toEqual([1, 2]);
  });

  it('says 1/1 fallback determinism when nothing fell back: a default, flagged', () => {
    const r = memoryCliEvaluate([queries[1]!], () => observed('exact-key', 2));
    expect(r.fallback_determinism).toEqual({ numerator: 1, denominator: 1, by_default: true });
  });

  it('a fallback answer that changes within five asks is not stable; a failed ask is an empty answer', () => {
    const changed = [...observed('classic', 2), { ...observed('nomatch', 1)[0]!, replay: 3 }];
    const r = memoryCliEvaluate([queries[0]!], () => changed);
    expect(r.fallback_determinism).toEqual({ numerator: 0, denominator: 1, by_default: false });
    const failed = memoryCliEvaluate([queries[0]!], () => [{ ok: false, replay: 1 }]);
    expect(failed.selection_mode_reporting).toEqual({ numerator: 0, denominator: 1 });
    expect(failed.fallback_determinism.by_default).toBe(true);
  });
});

describe("the CLI's expected id, read off an rgate query record", () => {
  const hybrid = ['q1', 'q2', 'q3'];
  const answers = (id: string) => (hybrid.includes(id) ? observed('hybrid', 1) : []);

  it('is the one relevant document, whether the set judges by qrels or by useful_ids', () => {
    const byQrels = hybrid.map((query_id) => ({
      query_id,
      qrels: { 'cli-commands-4a43d031': 1, 'agents-37dd6836': 0 },
    }));
    const byIds = hybrid.map((query_id) => ({ query_id, useful_ids: ['cli-commands-4a43d031'] }));
    for (const set of [byQrels, byIds]) {
      const queries = set.map((q) => ({ query_id: q.query_id, expected_id: cliExpectedId(q) }));
      expect(memoryCliEvaluate(queries, answers).top1_useful_rate).toEqual({ numerator: 3, denominator: 3 });
    }
  });

  it('is none where the query names several relevant documents, paths or nothing', () => {
    expect(cliExpectedId({ qrels: { a: 2, b: 3, c: 0 } })).toBeUndefined();
    expect(cliExpectedId({ useful_ids: ['a', 'b'], qrels: { a: 1 } })).toBeUndefined();
    expect(cliExpectedId({ useful_paths: ['x.md'], qrels: { a: 1 } })).toBeUndefined();
    expect(cliExpectedId({ qrels: { a: 0 } })).toBeUndefined();
    expect(cliExpectedId({})).toBeUndefined();
    // useful_ids override qrels, as in rgate's own judging
    expect(cliExpectedId({ useful_ids: ['b'], qrels: { a: 1 } })).toBe('b');
  });
});
