/**
 * Labels that tell the truth (issue 24): a ranking-only answer (the builtin engine in BM25 mode names
 * no selection mode) is shown as a ranking, never as no_match, in the selection-mode table and the
 * per-query rows of every format.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSuite, type RunOutcome } from '../harness/run-suite.js';
import { renderHtml } from '../reports/run/html.js';
import { renderMarkdown } from '../reports/run/markdown.js';
import { renderTerminal } from '../reports/run/terminal.js';
import { actualText, RANKING_ONLY, selectionModeRows } from '../reports/run/view.js';
import { MemoryRunStore } from '../src/store/memory-store.js';

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
