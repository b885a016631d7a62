import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRgateError } from '../core/errors.js';
import { loadFixtureSet, writeFixtureSet } from './fixture-set.js';
import { writeFreeze } from './freeze-write.js';
import { mergeQrels } from './qrels-merge.js';

const root = mkdtempSync(join(tmpdir(), 'rgate-qrels-merge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A fresh set folder: 4 documents, 3 queries; q3's line is hand-written (key order, CRLF kept). */
function makeSet(frozen = false): string {
  const dir = join(root, `s${++n}`, 'mini');
  writeFixtureSet(dir, {
    corpus: ['d1', 'd2', 'd3', 'd4'].map((id) => ({ id, text: `text ${id}` })),
    queries: [
      { query_id: 'q1', text: 'one', qrels: { d1: 2 } },
      { query_id: 'q2', text: 'two', qrels: { d2: 1 } },
    ],
    config: { mode: 'bm25', as_of: '2026-01-01T00:00:00Z' },
  });
  const qpath = join(dir, 'queries.jsonl');
  writeFileSync(qpath, readFileSync(qpath, 'utf8') + '{"text": "three",  "query_id": "q3"}\r\n');
  if (frozen) writeFreeze(dir, { frozenOn: '2026-11-01' });
  return dir;
}

function judgments(lines: unknown[]): string {
  const path = join(root, `j${++n}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

async function refused(p: Promise<unknown>): Promise<{ message: string; hint: string; exit: number }> {
  try {
    await p;
  } catch (e) {
    if (!isRgateError(e)) throw e;
    return { message: e.message, hint: e.hint ?? '', exit: e.exitCode };
  }
  throw new Error('not refused');
}

describe('mergeQrels', () => {
  it('adds grades with judge and date, keeps untouched lines byte for byte, counts restated grades', async () => {
    const dir = makeSet();
    const before = readFileSync(join(dir, 'queries.jsonl'), 'utf8').split('\n');
    const file = judgments([
      { query_id: 'q1', doc_id: 'd3', grade: 3, date: '2026-11-20' },
      { query_id: 'q1', doc_id: 'd1', grade: 2, date: '2026-11-20' }, // already in the qrels
      { query_id: 'q3', doc_id: 'd4', grade: 0 }, // --date fills it
      { query_id: 'q3', doc_id: 'd4', grade: 0, date: '2026-11-21' }, // the same again
    ]);
    const r = await mergeQrels(dir, file, { judge: 'ana', date: '2026-11-22' });
    expect(r).toMatchObject({
      added: 2,
      unchanged: 2,
      queries_touched: 2,
      date: '2026-11-22',
      written: true,
    });
    const after = readFileSync(join(dir, 'queries.jsonl'), 'utf8').split('\n');
    expect(after[1]).toBe(before[1]); // q2 untouched
    expect(JSON.parse(after[0]!)).toEqual({
      query_id: 'q1',
      text: 'one',
      qrels: { d1: 2, d3: 3 },
      judged_by: { d3: { judge: 'ana', date: '2026-11-20' } },
    });
    expect(after[2]).toBe(
      '{"judged_by":{"d4":{"date":"2026-11-22","judge":"ana"}},"qrels":{"d4":0},"query_id":"q3","text":"three"}\r',
    );
    expect(loadFixtureSet(dir, { verify: false }).queries[2]!.qrels).toEqual({ d4: 0 });
    expect(readFileSync(join(dir, 'PROVENANCE.md'), 'utf8')).toContain(
      '2 judgment(s) over 2 queries by ana, merged from',
    );
    // merging the same file again changes nothing
    const again = await mergeQrels(dir, file, { judge: 'ana', date: '2026-11-22' });
    expect(again).toMatchObject({ added: 0, unchanged: 4, written: false });
  });

  it('refuses two grades for one (query, doc), naming both lines, and writes nothing', async () => {
    const dir = makeSet();
    const before = snapshot(dir);
    const file = judgments([
      { query_id: 'q1', doc_id: 'd3', grade: 3, date: '2026-11-20' },
      { query_id: 'q2', doc_id: 'd3', grade: 1, date: '2026-11-20' },
      { query_id: 'q1', doc_id: 'd3', grade: 1, date: '2026-11-20' },
    ]);
    const e = await refused(mergeQrels(dir, file, { judge: 'ana' }));
    expect(e.exit).toBe(2);
    expect(e.message).toMatch(/^j\d+\.jsonl:3 \/grade: 1 for \(q1, d3\) conflicts with grade 3 on line 1$/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a grade that contradicts the qrels, naming the qrels line', async () => {
    const dir = makeSet();
    const before = snapshot(dir);
    const file = judgments([{ query_id: 'q2', doc_id: 'd2', grade: 3, date: '2026-11-20' }]);
    const e = await refused(mergeQrels(dir, file, { judge: 'ana' }));
    expect(e.message).toMatch(
      /:1 \/grade: 3 for \(q2, d2\) conflicts with the qrels' grade 1 \(queries\.jsonl:2 \/qrels\/d2\)/,
    );
    expect(e.hint).toMatch(/never overwrites/);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([
    ['{"query_id": "q1", "doc_id": "d3", "grade": "2", "date": "2026-11-20"}', /:1 \/grade: must be integer/],
    ['{"query_id": "q1", "doc_id": "d3", "grade": 2, "date": "2026-11-20", "extra": 1}', /:1 .*extra/],
    ['{"query_id": "q1", "doc_id": "d3", "grade": -1, "date": "2026-11-20"}', /:1 \/grade: must be >= 0/],
    ['{"query_id": "q1", "doc_id": "d3", "grade": 2, "date": "20.11.2026"}', /:1 \/date: must match pattern/],
    [
      '{"query_id": "q1", "doc_id": "d3", "grade": 2, "date": "2026-02-30"}',
      /:1 \/date: 2026-02-30: not a calendar date/,
    ],
    ['{"query_id": "q1", "doc_id": "d3", "grade": 2}', /:1 \/date: missing, and no --date given/],
    ['{"query_id": "q9", "doc_id": "d3", "grade": 2, "date": "2026-11-20"}', /:1 \/query_id: no query "q9"/],
    ['{"query_id": "q1", "doc_id": "d9", "grade": 2, "date": "2026-11-20"}', /:1 \/doc_id: no document "d9"/],
    ['{"query_id": "q1", "doc_id": ', /:1: not valid JSON/],
  ])('refuses a bad line with file, line and path (%s)', async (line, want) => {
    const dir = makeSet();
    const before = snapshot(dir);
    const e = await refused(mergeQrels(dir, judgments([line]), { judge: 'ana' }));
    expect(e.exit).toBe(2);
    expect(e.message).toMatch(/^j\d+\.jsonl/);
    expect(e.message).toMatch(want);
    expect(snapshot(dir)).toEqual(before);
  });

  it('a frozen set: refused without a version bump and reset note, bumped with them', async () => {
    const dir = makeSet(true);
    const before = snapshot(dir);
    const file = judgments([{ query_id: 'q1', doc_id: 'd3', grade: 3, date: '2026-11-20' }]);
    const e = await refused(mergeQrels(dir, file, { judge: 'ana' }));
    expect(e.message).toMatch(
      /mini is frozen \(mini-fixture v1\); merging 1 judgment\(s\) changes its query set/,
    );
    expect(e.hint).toContain('--version v2 --reset-note');
    expect(snapshot(dir)).toEqual(before);
    const low = await refused(mergeQrels(dir, file, { judge: 'ana', version: 'v1', resetNote: 'x' }));
    expect(low.message).toMatch(/not above the frozen version v1/);
    expect(snapshot(dir)).toEqual(before);
    // a dry run checks everything a merge does (the bump included) and writes nothing
    const dry = await mergeQrels(dir, file, { judge: 'ana', dryRun: true, version: 'v2', resetNote: 'n' });
    expect(dry).toMatchObject({ added: 1, written: false });
    expect(snapshot(dir)).toEqual(before);

    const r = await mergeQrels(dir, file, { judge: 'ana', version: 'v2', resetNote: '1 pooled judgment' });
    expect(r.frozen?.action).toBe('bumped');
    const set = loadFixtureSet(dir); // verifies against the new freeze
    expect(set.freeze.version).toBe('v2');
    expect(set.freeze.frozen_on).toBe('2026-11-20'); // the judgments' date, not the clock
    expect(set.freeze.history.at(-1)?.reset_note).toBe('1 pooled judgment');
    expect(set.queries[0]!.judged_by).toEqual({ d3: { judge: 'ana', date: '2026-11-20' } });
    expect(readFileSync(join(dir, 'corpus.jsonl'), 'utf8')).toBe(before['corpus.jsonl']);
  });

  it('is deterministic: the same file into two copies of a set gives byte-identical sets', async () => {
    const [a, b] = [makeSet(true), makeSet(true)];
    const file = judgments([
      { query_id: 'q2', doc_id: 'd4', grade: 1, date: '2026-11-19' },
      { query_id: 'q1', doc_id: 'd3', grade: 3, date: '2026-11-20' },
    ]);
    for (const dir of [a, b]) await mergeQrels(dir, file, { judge: 'ana', version: 'v2', resetNote: 'n' });
    expect(snapshot(b)).toEqual(snapshot(a));
    expect(JSON.parse(snapshot(a)['freeze.json']!).frozen_on).toBe('2026-11-20');
  });

  it('refuses an empty judge or file', async () => {
    const dir = makeSet();
    const file = judgments([{ query_id: 'q1', doc_id: 'd3', grade: 3, date: '2026-11-20' }]);
    expect((await refused(mergeQrels(dir, file, { judge: ' ' }))).message).toMatch(/--judge: empty/);
    expect((await refused(mergeQrels(dir, judgments(['']), { judge: 'a' }))).message).toMatch(/no judgments/);
    expect((await refused(mergeQrels(dir, join(root, 'none.jsonl'), { judge: 'a' }))).message).toMatch(
      /no such file/,
    );
    expect((await refused(mergeQrels(dir, file, { judge: 'a', date: '2026-13-01' }))).message).toMatch(
      /--date 2026-13-01: not a calendar date/,
    );
  });
});
