import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRgateError, RgateError } from '../src/core/errors.js';
import { createPrng } from '../src/core/prng.js';
import {
  loadFixtureSet,
  readFreeze,
  verifyFixtureSet,
  writeFreeze,
  type VerifyResult,
} from '../src/snapshot/index.js';

/** Integration: the freeze binding on copies of the bundled sets (never the repo's own files). */
const repo = resolve(import.meta.dirname, '..');
const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function copySet(name: string): string {
  const root = mkdtempSync(join(tmpdir(), 'rgate-freeze-'));
  temps.push(root);
  const dir = join(root, name);
  cpSync(join(repo, 'fixtures', name), dir, { recursive: true });
  return dir;
}

/** verify, folding "throws an input error" and "reports a mismatch" into one outcome with a message. */
function outcome(dir: string): { ok: boolean; message: string } {
  try {
    const r: VerifyResult = verifyFixtureSet(dir);
    return { ok: r.ok, message: r.problems.join('\n') };
  } catch (e) {
    if (!isRgateError(e)) throw e;
    return { ok: false, message: e.message };
  }
}

function flipByte(path: string, pos: number): void {
  const buf = readFileSync(path);
  buf[pos] = buf[pos]! ^ 0x01;
  writeFileSync(path, buf);
}

describe('freeze binding on the bundled sets (copies)', () => {
  it('a copy verifies as is', () => {
    const dir = copySet('cranfield');
    expect(outcome(dir)).toEqual({ ok: true, message: '' });
  });

  it.each(
    ['cranfield', 'cacm'].flatMap((set) =>
      ['corpus.jsonl', 'queries.jsonl', 'config.json', 'freeze.json'].map((file) => [set, file] as const),
    ),
  )('%s: flipping any one byte of %s fails and names the file', (set, file) => {
    const dir = copySet(set);
    const path = join(dir, file);
    const size = readFileSync(path).length;
    const rnd = createPrng(size);
    // first byte, last byte, and a seeded sample in between
    const positions = [0, size - 1, ...Array.from({ length: 8 }, () => rnd.int(size))];
    const original = readFileSync(path);
    for (const pos of positions) {
      flipByte(path, pos);
      const o = outcome(dir);
      expect(o.ok, `byte ${pos} of ${file}`).toBe(false);
      expect(o.message).toContain(file);
      writeFileSync(path, original);
    }
    expect(outcome(dir).ok).toBe(true);
  });

  it('a content mismatch names the file and both hashes', () => {
    const dir = copySet('cranfield');
    const path = join(dir, 'queries.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('similarity laws', 'similarity lawz'));
    const r = verifyFixtureSet(dir);
    const frozen = readFreeze(dir);
    const bad = r.checks.find((c) => !c.ok)!;
    expect(bad.file).toBe(path);
    expect(bad.expected).toBe(frozen.query_set_sha256);
    expect(bad.actual).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.problems[0]).toContain(frozen.query_set_sha256);
    expect(r.problems[0]).toContain(bad.actual);
    // the throwing form used by runs
    try {
      loadFixtureSet(dir);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RgateError);
      expect((e as RgateError).code).toBe('freeze_mismatch');
      expect((e as RgateError).exitCode).toBe(2);
      expect((e as RgateError).message).toContain('queries.jsonl');
    }
  });

  it.each(['cranfield', 'cacm'])(
    '%s: reordering keys, LF -> CRLF, trailing spaces, blank lines still verify',
    (set) => {
      const dir = copySet(set);
      for (const file of ['corpus.jsonl', 'queries.jsonl']) {
        const path = join(dir, file);
        const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
        const reordered = lines.map((l) => {
          const o = JSON.parse(l) as Record<string, unknown>;
          return JSON.stringify(Object.fromEntries(Object.entries(o).reverse()), null, 0) + '   ';
        });
        writeFileSync(path, '\r\n' + reordered.join('\r\n') + '\r\n\r\n');
      }
      const cfg = join(dir, 'config.json');
      const c = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
      writeFileSync(
        cfg,
        JSON.stringify(Object.fromEntries(Object.entries(c).reverse()), null, 4).replace(/\n/g, '\r\n'),
      );
      expect(outcome(dir)).toEqual({ ok: true, message: '' });
      const f = join(dir, 'freeze.json');
      const fz = JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;
      writeFileSync(
        f,
        JSON.stringify(Object.fromEntries(Object.entries(fz).reverse()), null, 3).replace(/\n/g, '\r\n'),
      );
      expect(outcome(dir)).toEqual({ ok: true, message: '' });
      expect(loadFixtureSet(dir).queries).toHaveLength(readFreeze(dir).counts.queries);
    },
  );
});

describe('re-freezing', () => {
  const date = '2026-11-22';

  it('is a no-op when nothing changed (file untouched, frozen_on kept)', () => {
    const dir = copySet('cranfield');
    const before = readFileSync(join(dir, 'freeze.json'), 'utf8');
    const r = writeFreeze(dir, { frozenOn: '2030-01-01' });
    expect(r.action).toBe('unchanged');
    expect(readFileSync(join(dir, 'freeze.json'), 'utf8')).toBe(before);
  });

  it('refuses a query change without a bump, and a bump without a reset note; keeps the note', () => {
    const dir = copySet('cranfield');
    const q = join(dir, 'queries.jsonl');
    writeFileSync(
      q,
      readFileSync(q, 'utf8') + JSON.stringify({ query_id: 'new-1', text: 'new query' }) + '\n',
    );
    const refused = (o: Parameters<typeof writeFreeze>[1]): RgateError => {
      try {
        writeFreeze(dir, o);
      } catch (e) {
        return e as RgateError;
      }
      throw new Error('expected a refusal');
    };
    const noBump = refused({ frozenOn: date });
    expect(noBump.code).toBe('freeze_violation');
    expect(noBump.message).toContain('the query set changed');
    expect(noBump.hint).toContain('--version v2');
    const noNote = refused({ frozenOn: date, version: 'v2' });
    expect(noNote.message).toContain('reset note');
    const notHigher = refused({ frozenOn: date, version: 'v1', resetNote: 'x' });
    expect(notHigher.message).toContain('needs a version bump');
    const lower = refused({ frozenOn: date, version: 'v0', resetNote: 'x' });
    expect(lower.code).toBe('freeze_violation');
    // the refusals left the freeze alone, so the set no longer verifies
    expect(outcome(dir).ok).toBe(false);

    const r = writeFreeze(dir, {
      frozenOn: '2026-12-01',
      version: 'v2',
      resetNote: 'added probe query new-1',
    });
    expect(r.action).toBe('bumped');
    expect(r.changed).toEqual({ corpus: false, query_set: true, config: false });
    const f = readFreeze(dir);
    expect(f.version).toBe('v2');
    expect(f.history.map((h) => h.version)).toEqual(['v1', 'v2']);
    expect(f.history[1]!.reset_note).toBe('added probe query new-1');
    expect(f.history[1]!.frozen_on).toBe('2026-12-01');
    expect(f.query_set_id).toMatch(/^cranfield\/queries@v2#[0-9a-f]{16}$/);
    expect(f.counts.queries).toBe(226);
    expect(outcome(dir).ok).toBe(true);
  });

  it('a config (profile) change and a corpus-only change both need bump + note', () => {
    const dir = copySet('cranfield');
    const cfg = join(dir, 'config.json');
    writeFileSync(
      cfg,
      JSON.stringify({ ...JSON.parse(readFileSync(cfg, 'utf8')), retrieval_profile: 'small' }),
    );
    expect(() => writeFreeze(dir, { frozenOn: date, version: 'v2' })).toThrow(/config changed.*reset note/);
    expect(writeFreeze(dir, { frozenOn: date, version: 'v2', resetNote: 'profile small' }).action).toBe(
      'bumped',
    );

    const c = join(dir, 'corpus.jsonl');
    writeFileSync(c, readFileSync(c, 'utf8').replace('slipstream', 'slip-stream'));
    expect(() => writeFreeze(dir, { frozenOn: date })).toThrow(/the corpus changed.*version bump/);
    expect(() => writeFreeze(dir, { frozenOn: date, version: 'v3' })).toThrow(
      /the corpus changed.*reset note/,
    );
    const r = writeFreeze(dir, { frozenOn: date, version: 'v3', resetNote: 'hyphenated slip-stream' });
    expect(r.changed).toEqual({ corpus: true, query_set: false, config: false });
    // a bump without any change is allowed, with its note
    expect(() => writeFreeze(dir, { frozenOn: date, version: 'v4' })).toThrow(/nothing changed/);
    expect(writeFreeze(dir, { frozenOn: date, version: 'v4', resetNote: 'new Gate C cycle' }).action).toBe(
      'bumped',
    );
    expect(readFreeze(dir).history.map((h) => [h.version, h.reset_note ?? null])).toEqual([
      ['v1', null],
      ['v2', 'profile small'],
      ['v3', 'hyphenated slip-stream'],
      ['v4', 'new Gate C cycle'],
    ]);
  });

  it('frozen_on is metadata: the same content frozen on two dates gives the same ids', () => {
    const a = copySet('cranfield');
    const b = copySet('cranfield');
    rmSync(join(a, 'freeze.json'));
    rmSync(join(b, 'freeze.json'));
    const fa = writeFreeze(a, { frozenOn: '2020-01-01' }).freeze;
    const fb = writeFreeze(b, { frozenOn: '2029-12-31' }).freeze;
    expect(fa.corpus_id).toBe(fb.corpus_id);
    expect(fa.query_set_id).toBe(fb.query_set_id);
    expect(fa.config_id).toBe(fb.config_id);
    expect(fa.seal).not.toBe(fb.seal);
  });

  it('a verified set carries the pinned ids, even from a renamed copy', () => {
    const dir = copySet('cranfield');
    const renamed = join(dir, '..', 'cranfield-copy');
    cpSync(dir, renamed, { recursive: true });
    const s = loadFixtureSet(renamed);
    const f = readFreeze(renamed);
    expect(s.name).toBe('cranfield-copy');
    expect([s.artifacts.corpus_id, s.artifacts.query_set_id, s.artifacts.config_id]).toEqual([
      f.corpus_id,
      f.query_set_id,
      f.config_id,
    ]);
    expect(s.artifacts.corpus_id.startsWith('cranfield/corpus@v1#')).toBe(true);
  });

  it('a hand-edited freeze.json breaks its seal', () => {
    const dir = copySet('cranfield');
    const f = join(dir, 'freeze.json');
    writeFileSync(
      f,
      readFileSync(f, 'utf8').replace('"frozen_on": "2026-11-22"', '"frozen_on": "2026-11-21"'),
    );
    expect(() => verifyFixtureSet(dir)).toThrow(/edited after freezing/);
  });
});
