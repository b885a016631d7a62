import { describe, expect, it } from 'vitest';
import { buildIndexedCorpus } from './indexed-corpus.js';
import { FallbackPicks, mentions } from './semantic-fallback.js';
import { cfg, rec } from './test-helpers.js';

describe('the fallback picks of semantic selection', () => {
  it('matches mentioned keys only as whole words', () => {
    expect(mentions('see ADR-0008 now', 'ADR-0008')).toBe(true);
    expect(mentions('see ADR-00081', 'ADR-0008')).toBe(false);
    expect(mentions('xFREEZE', 'FREEZE')).toBe(false);
    expect(mentions('(FREEZE)', 'FREEZE')).toBe(true);
    expect(mentions('ADR-0008', '')).toBe(false);
  });

  const ic = buildIndexedCorpus(
    [
      rec('b-low', 'x', { key: 'ADR-1', source_path: 'docs/b.md', path_priority: 1 }),
      rec('a-high', 'x', { key: 'ADR-1', source_path: 'docs/z.md', path_priority: 3 }),
      rec('c-same', 'x', { key: 'ADR-1', source_path: 'docs/a.md', path_priority: 3 }),
      rec('long', 'x', { key: 'ADR-10', source_path: 'notes/long.md' }),
      rec('hidden', 'x', {
        key: 'SECRET-KEY',
        source_path: 'runbooks/vault.md',
        path_priority: 9,
        tags: ['secret'],
      }),
      rec('runbook', 'x', { source_path: 'runbooks/oncall-rotation.md', path_priority: 2 }),
      rec('rota', 'x', { source_path: 'runbooks/rotation.md', path_priority: 2 }),
    ],
    cfg(),
  );
  const picks = new FallbackPicks(ic);
  const id = (doc: number | undefined) => (doc === undefined ? null : ic.records[doc]!.id);

  it('picks by exact key: path_priority desc, then source_path asc; the longest mentioned key first', () => {
    const byRequest = picks.exactKey({ query: 'q', exact_key: 'ADR-1' });
    expect(id(byRequest?.doc)).toBe('c-same');
    expect(byRequest?.reason).toBe('fallback_exact_key_request');
    const mentioned = picks.exactKey({ query: 'see ADR-10 and ADR-1' });
    expect(id(mentioned?.doc)).toBe('long');
    expect(mentioned?.reason).toBe('fallback_exact_key_mentioned');
    // an exact_key no record has falls through to the mentioned keys
    expect(id(picks.exactKey({ query: 'about ADR-1', exact_key: 'NOPE' })?.doc)).toBe('c-same');
  });

  it('never picks a withheld record', () => {
    expect(picks.exactKey({ query: 'SECRET-KEY', exact_key: 'SECRET-KEY' })).toBeNull();
    expect(id(picks.pathPriority('vault runbooks')?.doc)).toBe('runbook');
  });

  it('picks by path: path_priority desc, then more shared tokens, then source_path asc', () => {
    const both = picks.pathPriority('oncall rotation');
    expect(id(both?.doc)).toBe('runbook');
    expect(both?.detail).toMatch(/shares 2 token\(s\)/);
    expect(id(picks.pathPriority('rotation')?.doc)).toBe('runbook');
    expect(id(picks.pathPriority('docs')?.doc)).toBe('c-same');
    expect(picks.pathPriority('nothing shared')).toBeNull();
    expect(picks.pathPriority('')).toBeNull();
  });
});
