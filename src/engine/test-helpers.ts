import type { CorpusRecord, PartialConfig, RetrievalConfig } from '../documents/index.js';
import { resolveConfig } from '../core/resolve-config.js';

/** Shared builders for the engine's tests (not exported from index.ts). */
export function rec(id: string, text: string, extra: Partial<CorpusRecord> = {}): CorpusRecord {
  return {
    id,
    source_path: extra.source_path ?? `docs/${id}.md`,
    text,
    kind: extra.kind ?? 'tactical',
    captured_at: extra.captured_at ?? '2026-01-01T00:00:00Z',
    ...extra,
  };
}

export function cfg(overrides: PartialConfig = {}): RetrievalConfig {
  return resolveConfig({ as_of: '2026-04-01T00:00:00Z', freshness_half_life_days: 90, ...overrides });
}

/**
 * The semantic tests' corpus: three records with keys, paths and priorities the fallback chain
 * picks between, and twelve unrelated fillers so a top-k is full.
 */
export function semanticCorpus(): CorpusRecord[] {
  return [
    rec('freeze', 'Fixture freeze rules: bump the version and write a baseline reset note.', {
      key: 'FREEZE-RULES',
      source_path: 'docs/governance/freeze-rules.md',
      path_priority: 1,
    }),
    rec('deploy', 'Deploy windows are Tuesday and Thursday mornings; no deploys during holiday freeze.', {
      key: 'DEC-2026-011',
      source_path: 'docs/decisions/deploy-windows.md',
      path_priority: 2,
    }),
    rec('oncall', 'The on-call rotation hands over on Mondays at 10:00.', {
      source_path: 'runbooks/oncall.md',
      path_priority: 5,
    }),
    ...Array.from({ length: 12 }, (_, i) =>
      rec(`filler-${String(i).padStart(2, '0')}`, `Filler note number ${i} about lunch menus and parking.`, {
        source_path: `notes/filler-${i}.md`,
      }),
    ),
  ];
}
