import type { CorpusLine, CorpusRecord } from '../documents/index.js';

/**
 * A validated corpus line (rgate or BEIR shape) as a CorpusRecord: `_id` becomes `id`;
 * `source_path` defaults to the id, `kind` to 'canonical' and `captured_at` to the config's `as_of`
 * (never the wall clock, so freshness stays reproducible). BEIR `metadata` is dropped.
 */
export function normalizeCorpusLine(line: CorpusLine, asOf: string): CorpusRecord {
  const { _id, id, metadata: _metadata, ...rest } = line;
  const rid = (id ?? _id)!;
  const out: CorpusRecord = {
    ...rest,
    id: rid,
    source_path: line.source_path ?? rid,
    kind: line.kind ?? 'canonical',
    captured_at: line.captured_at ?? asOf,
    text: line.text,
  };
  return out;
}
