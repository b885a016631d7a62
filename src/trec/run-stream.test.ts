import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import { groupedRunFile, readRunFile, runDocno, streamRun, type RunQuery, type TrecRun } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-run-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A query's results as (docno, score, line) in file order. */
function rows(run: TrecRun, rq: RunQuery): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (let i = rq.start; i < rq.end; i++) out.push([runDocno(run, i), run.scores[i]!, run.lineOf[i]!]);
  return out;
}

function streamed(
  path: string,
  label = 'r.txt',
): { queries: [string, [string, number, number][]][]; runId?: string } {
  const queries: [string, [string, number, number][]][] = [];
  const r = streamRun(path, label, (run, rq) => queries.push([rq.qid, rows(run, rq)]));
  return { queries, ...(r ? { runId: r.runId } : {}) };
}

function caught(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('streamRun: a run grouped by query, read query by query', () => {
  it('hands over every query as reading it whole finds it, across 2 MiB chunks', () => {
    // ~4.5 MB: queries of up to 3,000 lines cross the reader's chunk boundaries, blank and comment
    // lines included, a query's docnos of varying length
    const rng = createPrng(36);
    let text = '';
    for (let q = 0; q < 60; q++) {
      const n = 1 + rng.int(3000);
      for (let r = 0; r < n; r++) {
        if (rng.int(500) === 0) text += rng.int(2) ? '\n' : '# note\n';
        text += `q${q} Q0 doc-${q}-${r}${'x'.repeat(rng.int(12))} ${r + 1} ${(rng.int(100000) / 1000).toFixed(3)} run${q}\n`;
      }
    }
    const path = file('grouped.txt', text);
    const whole = readRunFile(path);
    const got = streamed(path);
    expect(got.runId).toBe('run59');
    expect(got.queries.map(([q]) => q)).toEqual(whole.qids);
    for (const [qid, rs] of got.queries) expect(rs).toEqual(rows(whole, whole.byQid.get(qid)!));
  });

  it('gives up (undefined) on a query whose lines come back after another query', () => {
    const lines = ['1 Q0 a 1 3 r', '1 Q0 b 2 2 r', '2 Q0 a 1 3 r', '1 Q0 c 3 1 r'];
    const path = file('ungrouped.txt', lines.join('\n') + '\n');
    expect(streamRun(path, 'u', () => {})).toBeUndefined();
    expect(groupedRunFile(path, 0)).toBe(false);
    expect(groupedRunFile(file('grouped-small.txt', lines.slice(0, 3).join('\n') + '\n'), 0)).toBe(true);
    // below the size asked for: not streamed
    expect(groupedRunFile(path, 1 << 20)).toBe(false);
  });

  it('reports what reading the run whole reports: a bad line before a duplicate, then the duplicate', () => {
    const dup = ['1 Q0 a 1 3 r', '1 Q0 a 2 2 r', '2 Q0 b 1 3 r'];
    const both = file('dup-then-bad.txt', [...dup, '3 Q0 c 1 x r'].join('\n') + '\n');
    expect(caught(() => streamRun(both, 'r.txt', () => {}))).toBe(
      caught(() => readRunFile(both, { label: 'r.txt' })),
    );
    expect(caught(() => streamRun(both, 'r.txt', () => {}))).toMatch(/^r\.txt:4: score "x"/);
    const onlyDup = file('dup.txt', dup.join('\n') + '\n');
    expect(caught(() => streamRun(onlyDup, 'r.txt', () => {}))).toBe(
      'r.txt:2: document a retrieved twice for query 1 (first at line 1)',
    );
    const empty = file('comments.txt', '# nothing\n\n');
    expect(caught(() => streamRun(empty, 'r.txt', () => {}))).toBe(
      caught(() => readRunFile(empty, { label: 'r.txt' })),
    );
  });
});
