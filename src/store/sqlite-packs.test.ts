import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../documents/index.js';
import { ARTIFACTS, SETTINGS } from '../../test/helpers/run-rows.js';
import { MERGED_PACK_BODIES, mergePacks, packBodies, unpackBodies } from './observation-packs.js';
import { OBSERVATION_BATCH, SqliteRunStore } from './sqlite-store.js';

/** An observation whose ranking is long and unlike the others' (a pack of them spans many pages). */
function obs(i: number, replay = 1): Observation {
  const ranked = Array.from({ length: 12 }, (_, r) => {
    const h = createHash('sha256').update(`${i}/${r}`).digest('hex');
    return { id: `d${h.slice(0, 12)}`, source_path: `docs/${h.slice(12, 40)}.md`, score: 1 / (r + 1) };
  });
  return {
    query_id: `q${String(i).padStart(5, '0')}`,
    replay,
    ok: true,
    ranked,
    fallback: { triggered: false },
    usage: { files: 12, chars: 10 * i, tokens: 3 },
    latency_ms: i / 7,
    contract: { name: 'rgate', valid: true, errors: [] },
    fingerprint: `sha256:${i}`,
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function history(): string {
  const d = mkdtempSync(join(tmpdir(), 'rgate-packs-'));
  dirs.push(d);
  return join(d, 'history.sqlite');
}

/** What another connection sees of the file: packs of the run, free pages, pages, vacuum mode. */
function fileState(path: string): { packs: number; free: number; pages: number; autoVacuum: number } {
  const db = new Database(path, { readonly: true });
  try {
    const one = (pragma: string) => db.pragma(pragma, { simple: true }) as number;
    const { n } = db.prepare('SELECT COUNT(*) AS n FROM observation_packs').get() as { n: number };
    return {
      packs: n,
      free: one('freelist_count'),
      pages: one('page_count'),
      autoVacuum: one('auto_vacuum'),
    };
  } finally {
    db.close();
  }
}

function begun(path: string): SqliteRunStore {
  const s = new SqliteRunStore(path, { batchMs: 3_600_000 });
  s.beginRun({
    run_id: 'r1',
    suite: 's',
    started_at: '2026-11-28T00:00:00Z',
    artifacts: ARTIFACTS,
    settings: SETTINGS,
  });
  return s;
}

describe('mergePacks', () => {
  it("joins a run's packs in pack order and says where each one's bodies went", () => {
    const merged = mergePacks([
      { pack: 3, bodies: packBodies(['c', 'd', 'e']) },
      { pack: 0, bodies: packBodies(['a', 'b']) },
    ])!;
    expect(merged.packs.map((p) => [p.pack, unpackBodies(p.bodies)])).toEqual([
      [0, ['a', 'b', 'c', 'd', 'e']],
    ]);
    expect(merged.moved).toEqual([
      { from: 0, pack: 0, offset: 0 },
      { from: 3, pack: 0, offset: 2 },
    ]);
    expect(mergePacks([{ pack: 0, bodies: packBodies(['a']) }])).toBeNull();
  });

  it('starts another merged pack rather than pass MERGED_PACK_BODIES bodies', () => {
    const texts = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
    const merged = mergePacks([
      { pack: 0, bodies: packBodies(texts(MERGED_PACK_BODIES - 1, 'a')) },
      { pack: 1, bodies: packBodies(texts(2, 'b')) },
      { pack: 2, bodies: packBodies(texts(1, 'c')) },
    ])!;
    expect(merged.packs.map((p) => unpackBodies(p.bodies).length)).toEqual([MERGED_PACK_BODIES - 1, 3]);
    expect(merged.moved.map((m) => [m.pack, m.offset])).toEqual([
      [0, 0],
      [1, 0],
      [1, 2],
    ]);
  });
});

describe('SqliteRunStore at the end of a run', () => {
  it('keeps one pack per batch while the run goes, one pack once it ends, and gives the freed pages back', () => {
    const path = history();
    const s = begun(path);
    const written: Observation[] = [];
    for (let i = 0; i < 4 * OBSERVATION_BATCH + 5; i++) written.push(obs(i));
    // replay 2 answers the first half the same way (bodies stored once) and the rest anew
    for (let i = 0; i < 4 * OBSERVATION_BATCH + 5; i++)
      written.push(obs(i < 2 * OBSERVATION_BATCH ? i : i + 10_000, 2));
    for (const o of written) s.addObservation('r1', o);
    s.flush();
    const going = fileState(path);
    expect(going.autoVacuum).toBe(2); // INCREMENTAL: a new file
    expect(going.packs).toBe(8);
    s.finishRun('r1', { status: 'complete', finished_at: '2026-11-28T00:01:00Z', metrics: [] });
    const ended = fileState(path);
    expect(ended.packs).toBe(1);
    expect(ended.free).toBe(0);
    expect(ended.pages).toBeLessThan(going.pages);
    const order = (o: Observation) => `${o.replay}/${o.query_id}`;
    const expected = written
      .map((o) => ({ ...o, query_id: o.query_id }))
      .sort((a, b) => (order(a) < order(b) ? -1 : 1));
    expect(s.getObservations('r1')).toEqual(expected);
    s.close();
  });

  it('reads a resumed run back exactly: its new bodies packed after the merged ones, old ones reused', () => {
    const path = history();
    const s = begun(path);
    for (let i = 0; i < 2 * OBSERVATION_BATCH; i++) s.addObservation('r1', obs(i));
    s.finishRun('r1', { status: 'interrupted', finished_at: '2026-11-28T00:01:00Z', metrics: [] });
    s.resumeRun('r1');
    for (let i = 0; i < 3 * OBSERVATION_BATCH; i++) s.addObservation('r1', obs(i, 2));
    s.finishRun('r1', { status: 'complete', finished_at: '2026-11-28T00:02:00Z', metrics: [] });
    expect(fileState(path).packs).toBe(1);
    const got = s.getObservations('r1');
    expect(got).toHaveLength(5 * OBSERVATION_BATCH);
    expect(got).toEqual([
      ...Array.from({ length: 2 * OBSERVATION_BATCH }, (_, i) => obs(i)),
      ...Array.from({ length: 3 * OBSERVATION_BATCH }, (_, i) => obs(i, 2)),
    ]);
    s.close();
  });

  it('merges in a history file made before auto_vacuum too (its free pages stay in it, for the next run)', () => {
    const path = history();
    const old = new Database(path);
    old.exec('CREATE TABLE made_before (a)'); // the file's vacuum mode is fixed from here: none
    old.close();
    const s = begun(path);
    for (let i = 0; i < 3 * OBSERVATION_BATCH; i++) s.addObservation('r1', obs(i));
    s.finishRun('r1', { status: 'complete', finished_at: '2026-11-28T00:01:00Z', metrics: [] });
    const ended = fileState(path);
    expect(ended).toMatchObject({ packs: 1, autoVacuum: 0 });
    expect(s.getObservations('r1')).toEqual(Array.from({ length: 3 * OBSERVATION_BATCH }, (_, i) => obs(i)));
    s.close();
  });
});
