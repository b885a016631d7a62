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
