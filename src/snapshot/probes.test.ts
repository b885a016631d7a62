import { describe, expect, it } from 'vitest';
import type { CorpusRecord } from '../documents/index.js';
import { deriveProbes, GENERATED_PROBE_TAG } from './probes.js';

const rec = (id: string, path: string, text: string, extra: Partial<CorpusRecord> = {}): CorpusRecord => ({
  id,
  source_path: path,
  text,
  kind: 'canonical',
  captured_at: '2026-01-01T00:00:00Z',
  ...extra,
});

const corpus = [
  rec('runbook-paging', 'docs/runbooks/paging.md', 'page the oncall engineer', {
    key: 'RUNBOOK-PAGING',
    path_priority: 40,
  }),
  rec('runbook-deploy', 'docs/runbooks/deploy.md', 'deploy steps', { path_priority: 90 }),
  rec('adr-7', 'docs/adr/ADR-0007.md', 'storage engine choice', { key: 'ADR-0007' }),
  rec('readme', 'README.md', 'the project readme'),
];

describe('deriveProbes', () => {
  it('is a pure function of corpus, count and seed; record order does not matter', () => {
    const a = deriveProbes(corpus, { count: 2, seed: 5 });
    const b = deriveProbes([...corpus].reverse(), { count: 2, seed: 5 });
    expect(b).toEqual(a);
    expect(deriveProbes(corpus, { count: 2, seed: 6 }).probes).not.toEqual(a.probes);
  });

  it('exact-key probes ask keyed records by key, expecting the exact-key fallback on that record', () => {
    const keyed = deriveProbes(corpus, { count: 5, seed: 1 }).probes.filter((p) =>
      p.tags?.includes('exact-key'),
    );
    expect(keyed.map((p) => p.exact_key).sort()).toEqual(['ADR-0007', 'RUNBOOK-PAGING']);
    const adr = keyed.find((p) => p.exact_key === 'ADR-0007')!;
    expect(adr).toMatchObject({
      text: 'ADR-0007',
      useful_ids: ['adr-7'],
      expect: { selection_mode: 'fallback_exact_key' },
    });
    expect(adr.tags).toEqual(['probe', 'exact-key', GENERATED_PROBE_TAG]);
  });

  it('without keys, exact-key probes use record ids and say so', () => {
    const r = deriveProbes([rec('a-1', 'x/a.md', 'alpha'), rec('b-2', 'x/b.md', 'beta')], {
      count: 1,
      seed: 1,
    });
    expect(r.probes[0]!.exact_key).toMatch(/^(a-1|b-2)$/);
    expect(r.notes).toContain('no record has a key: exact-key probes ask for record ids');
  });

  it('no-match probes use words found nowhere in the corpus', () => {
    const vocab = new Set(
      corpus.flatMap((r) =>
        `${r.id} ${r.source_path} ${r.text} ${r.key ?? ''}`.toLowerCase().split(/[^a-z0-9]+/),
      ),
    );
    const none = deriveProbes(corpus, { count: 3, seed: 9 }).probes.filter((p) => p.expect?.no_match);
    expect(none).toHaveLength(3);
    for (const p of none) {
      expect(p.text).toMatch(/^[a-z]{6} [a-z]{6}$/);
      for (const w of p.text.split(' ')) expect(vocab.has(w)).toBe(false);
    }
    expect(new Set(none.map((p) => p.text)).size).toBe(3);
  });

  it('path-priority probes ask a folder and expect its highest path_priority record', () => {
    const paths = deriveProbes(corpus, { count: 5, seed: 1 }).probes.filter((p) =>
      p.tags?.includes('path-priority'),
    );
    expect(paths.map((p) => p.text).sort()).toEqual(['docs/adr', 'docs/runbooks']);
    expect(paths.find((p) => p.text === 'docs/runbooks')).toMatchObject({
      useful_ids: ['runbook-deploy'],
      expect: { selection_mode: 'fallback_path_priority' },
    });
    // no path_priority in that folder: only the mode is expected
    expect(paths.find((p) => p.text === 'docs/adr')!.useful_ids).toBeUndefined();
  });

  it('refuses a count below 1 and an empty corpus', () => {
    expect(() => deriveProbes(corpus, { count: 0, seed: 1 })).toThrow(/--count 0/);
    expect(() => deriveProbes([], { count: 1, seed: 1 })).toThrow(/corpus is empty/);
  });
});
