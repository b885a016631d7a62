import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeArtifactIds } from './artifact-ids.js';
import { loadFixtureSet, resolveFixtureDir, writeFixtureSet } from './fixture-set.js';
import { writeFreeze } from './freeze-write.js';

const root = mkdtempSync(join(tmpdir(), 'rgate-set-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function makeSet(name: string): string {
  const dir = join(root, 'fixtures', name);
  writeFixtureSet(dir, {
    corpus: [
      { _id: 'b1', title: 'BEIR', text: 'beir text' } as never,
      {
        id: 'r1',
        source_path: 'docs/r1.md',
        text: 'rgate text',
        kind: 'tactical',
        captured_at: '2026-01-02T00:00:00Z',
      },
    ],
    queries: [{ query_id: 'q1', text: 'beir', qrels: { b1: 1 } }],
    config: { as_of: '2026-02-01T00:00:00Z' },
    provenance: 'generated part',
  });
  return dir;
}

describe('fixture sets', () => {
  it('resolves a name under <root>/fixtures and a path as given; unknown is a clear error', () => {
    const dir = makeSet('s1');
    expect(resolveFixtureDir('s1', root)).toBe(dir);
    expect(resolveFixtureDir('./fixtures/s1', root)).toBe(dir);
    expect(() => resolveFixtureDir('missing', root)).toThrow(/fixture set missing: no folder/);
  });

  it('normalises BEIR lines and fills defaults from the config (as_of), not the clock', () => {
    makeSet('s2');
    writeFreeze(join(root, 'fixtures', 's2'), { frozenOn: '2026-02-01' });
    const s = loadFixtureSet('s2', { root });
    expect(s.corpus[0]).toEqual({
      id: 'b1',
      source_path: 'b1',
      title: 'BEIR',
      text: 'beir text',
      kind: 'canonical',
      captured_at: '2026-02-01T00:00:00Z',
    });
    expect(s.corpus[1]!.kind).toBe('tactical');
    expect(s.config.as_of).toBe('2026-02-01T00:00:00Z');
    expect(s.artifacts).toMatchObject({ fixture: 's2', artifact_id: 's2-fixture', version: 'v1' });
    expect(s.artifacts.corpus_id).toMatch(/^s2\/corpus@v1#[0-9a-f]{16}$/);
  });

  it('an unfrozen set loads only with verify: false (version `unfrozen`)', () => {
    makeSet('s3');
    expect(() => loadFixtureSet('s3', { root })).toThrow(/not frozen/);
    const s = loadFixtureSet('s3', { root, verify: false });
    expect(s.freeze.version).toBe('unfrozen');
    expect(s.artifacts.query_set_id).toBe(computeArtifactIds(s.dir).query_set_id);
  });

  it('duplicate ids are errors naming both lines', () => {
    const dir = makeSet('s4');
    writeFileSync(join(dir, 'corpus.jsonl'), '{"id":"a","text":"x"}\n{"_id":"a","text":"y"}\n');
    expect(() => loadFixtureSet(dir, { verify: false })).toThrow(
      'corpus.jsonl:2 /id: duplicate id "a" (first on line 1)',
    );
    writeFileSync(join(dir, 'corpus.jsonl'), '{"id":"a","_id":"a","text":"x"}\n');
    expect(() => loadFixtureSet(dir, { verify: false })).toThrow(
      'corpus.jsonl:1 /_id: give either id or _id, not both',
    );
  });

  it('a config default counts in config_id: a default stated explicitly gives the same id', () => {
    const dir = makeSet('s5');
    const before = computeArtifactIds(dir).config_sha256;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ as_of: '2026-02-01T00:00:00Z', k: 10, $schema: 'x' }),
    );
    expect(computeArtifactIds(dir).config_sha256).toBe(before);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ as_of: '2026-02-01T00:00:00Z', k: 11 }));
    expect(computeArtifactIds(dir).config_sha256).not.toBe(before);
  });

  it('re-importing keeps hand-written PROVENANCE.md text outside the generated block', () => {
    const dir = join(root, 'fixtures', 's6');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'PROVENANCE.md'), '# Mine\n\nLicence: CC BY.\n');
    for (const p of ['first', 'second'])
      writeFixtureSet(dir, { corpus: [], queries: [], config: {}, provenance: p });
    const text = readFileSync(join(dir, 'PROVENANCE.md'), 'utf8');
    expect(text).toContain('Licence: CC BY.');
    expect(text).toContain('second');
    expect(text).not.toContain('first');
  });
});
