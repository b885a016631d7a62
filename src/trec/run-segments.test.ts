import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrng } from '../core/prng.js';
import * as src from './index.js';
import { RunBuilder } from './run-parse.js';
import { ChunkGrouper } from './run-segments.js';
import { RegionFull } from './run-storage.js';

const dir = mkdtempSync(join(tmpdir(), 'rgate-run-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Mod = typeof import('./index.js');
// two threads need the compiled worker (dist/, built by `tsc -p .`, which `npm test` runs first)
const distTrec = join(import.meta.dirname, '../../dist/src/trec/index.js');
const built = existsSync(join(import.meta.dirname, '../../dist/src/trec/run-read-worker.js'));
const load = async (): Promise<Mod> => (await import(pathToFileURL(distTrec).href)) as Mod;

/** A shuffled run of ~5 MB (several 2 MiB chunks a half), blank and comment lines included. */
function shuffledRun(): string {
  const rng = createPrng(3636);
  const lines: string[] = [];
  for (let q = 0; q < 400; q++) {
    const n = 1 + rng.int(700);
    for (let r = 0; r < n; r++)
      lines.push(
        `q${q} Q0 doc-${q}-${r}${'x'.repeat(rng.int(9))} ${r + 1} ${(rng.int(1000) / 100).toFixed(2)} run${q % 7}\n`,
      );
  }
  for (let i = lines.length - 1; i > 0; i--) {
    const k = rng.int(i + 1);
    [lines[i], lines[k]] = [lines[k]!, lines[i]!];
  }
  for (let i = 0; i < lines.length; i += 997) lines[i] = (i % 2 ? '\n' : '# a note\n') + lines[i]!;
  return lines.join('');
}

/** Each query's (docno, score) in file order, as reading the run whole groups them. */
function wholeRows(m: Mod, run: src.TrecRun): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  for (const qid of run.qids) {
    const rq = run.byQid.get(qid)!;
    const rows: [string, number][] = [];
    for (let i = rq.start; i < rq.end; i++) rows.push([m.runDocno(run, i), run.scores[i]!]);
    out.set(qid, rows);
  }
  return out;
}

function segmentedRows(m: Mod, run: src.SegmentedRun): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  run.forEachQuery('r', (r, rq) => {
    const rows: [string, number][] = [];
    for (let i = rq.start; i < rq.end; i++) rows.push([m.runDocno(r, i), r.scores[i]!]);
    out.set(rq.qid, rows);
  });
  return out;
}

function segmented(m: Mod, path: string, threads: 1 | 2): src.SegmentedRun {
  const run = m.startSegmentedRunRead(path, { threads, segmentMinBytes: 0 }).result();
  if (!(run instanceof m.SegmentedRun)) throw new Error('expected a segmented run');
  return run;
}

describe('startSegmentedRunRead: a shuffled run grouped chunk by chunk', () => {
  const path = join(dir, 'shuffled.run');
  writeFileSync(path, shuffledRun());

  const sameAsWhole = (m: Mod, threads: 1 | 2): void => {
    const whole = m.readRunFile(path, { threads: 1 });
    const seg = segmented(m, path, threads);
    expect(seg.qids).toEqual(whole.qids);
    expect(seg.runId).toBe(whole.runId);
    expect(seg.lines).toBe(whole.lines);
    const got = segmentedRows(m, seg);
    expect([...got.keys()]).toEqual(whole.qids);
    expect(got).toEqual(wholeRows(m, whole));
  };

  it('one thread: every query as reading it whole finds it, in file order', () => sameAsWhole(src, 1));

  it.skipIf(!built)('two threads: the same, queries split across the halves', async () => {
    sameAsWhole(await load(), 2);
  });

  it('a run with about one result per query in its first MiB is read whole (segments would not pay)', () => {
    let text = '';
    for (let i = 0; i < 40_000; i++) text += `q${(i * 7919) % 30_000} Q0 d${i} 1 ${i % 10} r\n`;
    const many = join(dir, 'many.run');
    writeFileSync(many, text);
    const run = src.startSegmentedRunRead(many, { threads: 1, segmentMinBytes: 0 }).result();
    expect(run instanceof src.SegmentedRun).toBe(false);
    expect(run.qids.length).toBe(30_000);
  });

  it('a run under segmentMinBytes is read whole', () => {
    const small = join(dir, 'small.run');
    writeFileSync(small, 'q1 Q0 d1 1 2 r\nq2 Q0 d2 1 1 r\n');
    const run = src.startSegmentedRunRead(small).result();
    expect(run instanceof src.SegmentedRun).toBe(false);
    expect(run.qids).toEqual(['q1', 'q2']);
  });

  const errors = async (threads: 1 | 2): Promise<void> => {
    const m = threads === 2 ? await load() : src;
    let text = '';
    for (let i = 0; i < 200_000; i++) text += `q${(i * 7) % 5} Q0 d${i} ${i} ${i % 9} r\n`;
    const bad = join(dir, `bad-${threads}.run`);
    // a bad line in the second half: its true line number
    writeFileSync(bad, text + 'q1 Q0 broken 1\n');
    expect(() => m.startSegmentedRunRead(bad, { threads, segmentMinBytes: 0 }).result()).toThrow(
      `bad-${threads}.run:200001: expected 6 fields, found 4`,
    );
    // a duplicate: found while walking the queries, reported with both lines (the run read again)
    writeFileSync(bad, text + 'q0 Q0 d5 1 1 r\n');
    const run = segmented(m, bad, threads);
    expect(() => run.forEachQuery(`bad-${threads}.run`, () => {})).toThrow(
      `bad-${threads}.run:200001: document d5 retrieved twice for query q0 (first at line 6)`,
    );
  };

  it('one thread: errors name their lines as reading the run whole does', () => errors(1));
  it.skipIf(!built)('two threads: the same', () => errors(2));

  // the store keeps a docno's length in a byte: a longer docno in either half and the run is read whole
  const longDocno = async (threads: 1 | 2): Promise<void> => {
    const m = threads === 2 ? await load() : src;
    const lines = shuffledRun().split('\n');
    // late in the file: in the worker's half when split
    lines[Math.floor(lines.length * 0.8)] = `q7 Q0 ${'u'.repeat(256)} 1 5.5 run0`;
    const long = join(dir, `long-${threads}.run`);
    writeFileSync(long, lines.join('\n'));
    const run = m.startSegmentedRunRead(long, { threads, segmentMinBytes: 0 }).result();
    expect(run instanceof m.SegmentedRun).toBe(false);
    const whole = m.readRunFile(long, { threads: 1 });
    expect(wholeRows(m, run as src.TrecRun)).toEqual(wholeRows(m, whole));
    expect(
      wholeRows(m, whole)
        .get('q7')!
        .some(([d]) => d.length === 256),
    ).toBe(true);
  };

  it('one thread: a docno over 255 bytes makes the run read whole', () => longDocno(1));
  it.skipIf(!built)('two threads: the same', () => longDocno(2));

  it('one thread: docnos of 255 bytes stay in segments', () => {
    const lines = shuffledRun().split('\n');
    lines[5] = `q9 Q0 ${'w'.repeat(255)} 1 5.5 run0`;
    const edge = join(dir, 'edge.run');
    writeFileSync(edge, lines.join('\n'));
    const seg = segmented(src, edge, 1);
    const whole = src.readRunFile(edge, { threads: 1 });
    expect(segmentedRows(src, seg)).toEqual(wholeRows(src, whole));
  });
});

describe("the segmented store's byte limit", () => {
  // its segments start at int32 byte offsets: past MAX_STORE_BYTES (2 GiB) the reader reads the run
  // whole instead (RegionFull, as for a long docno); here the limit is made small
  const buf = Buffer.from(shuffledRun());
  const group = (maxBytes?: number): void => {
    const g = new ChunkGrouper(
      new RunBuilder('run.txt', 1 << 10, 1 << 14),
      { bytes: new Uint8Array(1 << 16) },
      undefined,
      maxBytes,
    );
    g.feed(buf, buf.length);
    g.flush();
  };
  it('a store that would pass it throws RegionFull; within it the store grows', () => {
    expect(() => group(1 << 20)).toThrow(RegionFull);
    expect(() => group(buf.length * 2)).not.toThrow();
    expect(() => group()).not.toThrow();
  });
});
