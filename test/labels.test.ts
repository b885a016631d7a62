/**
 * Labels that tell the truth (issue 24): a ranking-only answer (the builtin engine in BM25 mode names
 * no selection mode) is shown as a ranking, never as no_match, in the selection-mode table and the
 * per-query rows of every format.
 */
import { join, resolve } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import { renderHtml } from '../reports/run/html.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { renderTerminal } from '../reports/run/terminal.js';
import { actualText, RANKING_ONLY, selectionModeRows, unmetExpectations } from '../reports/run/view.js';
import { writeFreeze } from '../src/snapshot/index.js';
import { MemoryRunStore } from '../src/store/memory-store.js';
import { tempDir } from './history-helpers.js';

const ROOT = resolve(import.meta.dirname, '..');
let bm25: RunOutcome;

beforeAll(async () => {
  bm25 = await runSuite({
    name: 'bm25-under-semantic-gate',
    spec: {
      fixture: 'context-load',
      system: { type: 'builtin', mode: 'bm25' },
      config: { mode: 'bm25' },
      gate: 'semantic-retrieval-v1',
      replays: 1,
    },
    root: ROOT,
    store: new MemoryRunStore(),
    runId: 'labels-bm25',
    startedAt: '2026-11-26T00:00:00Z',
  });
}, 120_000);

describe('a ranking-only answer is not no_match', () => {
  it('counts BM25 answers under "none (ranking only)", with their useful top-1s', () => {
    const r = bm25.report;
    const benchmark = r.queries.filter((q) => q.kind === 'benchmark');
    const useful = benchmark.filter((q) => q.top1 === 'useful').length;
    expect(useful).toBeGreaterThan(0);
    expect(benchmark.every((q) => q.actual.ok && q.actual.selection_mode === undefined)).toBe(true);
    const rows = selectionModeRows(r);
    expect(rows.find((m) => m.mode === 'no_match')).toBeUndefined();
    expect(rows.find((m) => m.mode === RANKING_ONLY)).toEqual({
      mode: RANKING_ONLY,
      queries: benchmark.length,
      useful,
      not_useful: benchmark.length - useful,
    });
    for (const q of benchmark) expect(actualText(q)).toBe(q.actual.selected_id);
    expect(renderTerminal(r)).toMatch(/none \(ranking only\) +\d+/);
    expect(renderMarkdown(r)).toContain('none (ranking only)');
    expect(renderHtml(r)).toContain('none (ranking only)');
  });
});

describe('a ranking-only system meets a no_match expectation by returning nothing', () => {
  let probes: RunOutcome;
  let cleanup: () => void;
  beforeAll(async () => {
    const t = tempDir('rgate-labels-');
    cleanup = t.cleanup;
    const dir = join(t.dir, 'fixtures', 'tiny');
    mkdirSync(dir, { recursive: true });
    const docs = [
      ['d1', 'storage engine decision record'],
      ['d2', 'paging runbook for the on-call rotation'],
    ];
    writeFileSync(
      join(dir, 'corpus.jsonl'),
      docs
        .map(([id, text]) =>
          JSON.stringify({
            id,
            source_path: `docs/${id}.md`,
            text,
            kind: 'canonical',
            captured_at: '2026-11-01T00:00:00Z',
          }),
        )
        .join('\n') + '\n',
    );
    const queries = [
      { query_id: 'q1', text: 'storage engine', useful_ids: ['d1'] },
      // nothing in the corpus shares a word with it: BM25 returns nothing
      { query_id: 'p-empty', text: 'zzqx qqvw', expect: { no_match: true, selection_mode: 'no_match' } },
      // it shares "runbook": BM25 returns d2, which is not "no match"
      { query_id: 'p-answered', text: 'billing runbook', expect: { no_match: true } },
    ];
    writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode: 'bm25', k: 5 }));
    writeFreeze(dir, { frozenOn: '2026-11-26' });
    probes = await runSuite({
      name: 'tiny',
      spec: { fixture: 'tiny', system: { type: 'builtin', mode: 'bm25' }, replays: 1 },
      root: t.dir,
      store: new MemoryRunStore(),
      runId: 'labels-no-match',
      startedAt: '2026-11-26T00:00:00Z',
    });
  }, 60_000);
  afterAll(() => cleanup());

  it('an empty BM25 ranking meets it; a non-empty one does not (docs/DECISIONS.md 2026-11-26)', () => {
    const r = probes.report;
    const q = (id: string) => r.queries.find((x) => x.query_id === id)!;
    expect(q('p-empty').actual).toMatchObject({ ok: true, top_ids: [] });
    expect(q('p-empty').actual.selection_mode).toBeUndefined();
    expect(q('p-empty').expectation_met).toBe(true);
    expect(q('p-answered').actual.top_ids).toEqual(['d2']);
    expect(q('p-answered').expectation_met).toBe(false);
    expect(unmetExpectations(r).map((u) => u.query_id)).toEqual(['p-answered']);
    const m = r.metrics.find((x) => x.id === 'fallback_expectation_met')!.value;
    expect(m.kind === 'rate' ? `${m.numerator}/${m.denominator}` : '').toBe('1/2');
    expect(renderMarkdown(r)).not.toContain('(nothing returned)');
  });
});
